import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { ReEncryptActivities } from '../activities/crypto/re-encrypt';
import { reEncryptProgress, type ReEncryptProgress, type ReEncryptWorkflow } from '../shared/temporal/re-encrypt/contract';
import { Stage } from '../shared/temporal/search-attribute-keys';

const { reEncryptBatch } = proxyActivities<ReEncryptActivities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * ReEncrypt: after ENCRYPTION_KEY is rotated, walks every column of sealed values batch by batch and
 * seals each value again under the new key, so the retired key can then be removed. Each batch is
 * one activity that remembers nothing: the workflow holds where the walk is.
 */
export const reEncrypt: ReEncryptWorkflow = async (input) => {
  const progress: ReEncryptProgress = { keyId: input.keyId, stage: 'rewriting', column: null, rewritten: {}, unreadable: {} };
  setHandler(reEncryptProgress, () => progress);
  for (const column of input.columns) {
    progress.column = column;
    progress.rewritten[column] = 0;
    progress.unreadable[column] = 0;
    let after: string | null = null;
    do {
      const batch: Awaited<ReturnType<ReEncryptActivities['reEncryptBatch']>> = await reEncryptBatch({ column, after });
      progress.rewritten[column] += batch.rewritten;
      progress.unreadable[column] += batch.unreadable;
      after = batch.nextAfter;
    } while (after);
  }
  progress.stage = 'completed';
  progress.column = null;
  upsertSearchAttributes([{ key: Stage, value: 'completed' }]);
  return progress;
};
