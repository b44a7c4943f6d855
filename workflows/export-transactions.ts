import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { TransactionExportActivities } from '../activities/exports/transactions';
import {
  exportTransactionsProgress,
  type ExportTransactionsProgress,
  type ExportTransactionsStage,
  type ExportTransactionsWorkflow,
} from '../shared/temporal/export-transactions/contract';
import { ExportId, Stage, TeamId } from '../shared/temporal/search-attribute-keys';

// Rows and files streamed to disk: a live attempt heartbeats as it goes, so a lost worker is noticed in 30 s.
const { writeTransactionExport } = proxyActivities<TransactionExportActivities>({
  startToCloseTimeout: '2h',
  heartbeatTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 8,
    nonRetryableErrorTypes: ['ExportNotFound'],
  },
});
const { announceTransactionExport, failTransactionExport } = proxyActivities<TransactionExportActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});
const { emailTransactionExport } = proxyActivities<TransactionExportActivities>({
  startToCloseTimeout: '1m',
  // A mail server down for a while must not lose the link: keep retrying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** Where the export is, in words, for the run's current details in the Temporal UI. */
function describe(p: ExportTransactionsProgress): string {
  const r = p.result;
  const written = r
    ? `Wrote ${count(r.rowsWritten, 'transaction', 'transactions')} and ${count(r.receiptsWritten, 'receipt', 'receipts')}` +
      (r.receiptsMissing ? ` (${r.receiptsMissing.toLocaleString('en')} missing from storage)` : '')
    : '';
  switch (p.stage) {
    case 'writing':
      return 'Writing the transactions and receipts into the ZIP';
    case 'announcing':
      return `${written}; notifying the requester`;
    case 'emailing':
      return `${written}; emailing the link`;
    case 'completed':
      return p.email === 'sent' ? `${written}; link emailed` : written;
    case 'failed':
      return `Failed: ${p.error ?? 'unknown error'}`;
  }
}

/**
 * ExportTransactions (id `export:<exportId>`): write the filtered rows as CSV and XLSX with their
 * receipts into one ZIP and keep it as a document → notify the requester → mail the link to the
 * address given. Each step can run again without doing its work twice (the stored export is found,
 * the notice and the mail are marked on the export row, the mail is claimed before it is sent), so a
 * worker lost mid-run leaves one document, one notice and one mail.
 */
export const exportTransactions: ExportTransactionsWorkflow = async (input) => {
  const progress: ExportTransactionsProgress = {
    exportId: input.exportId,
    stage: 'writing',
    result: null,
    notificationId: null,
    email: null,
    error: null,
  };
  setHandler(exportTransactionsProgress, () => progress);
  const setStage = (stage: ExportTransactionsStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
    setCurrentDetails(describe(progress));
  };
  // Found by team and export in the Temporal UI, however the run was started.
  upsertSearchAttributes([
    { key: TeamId, value: input.teamId },
    { key: ExportId, value: input.exportId },
    { key: Stage, value: progress.stage },
  ]);
  setCurrentDetails(describe(progress));

  try {
    progress.result = await writeTransactionExport(input);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    progress.error = err.cause instanceof ApplicationFailure ? err.cause.message : err.message;
    await failTransactionExport({ ...input, error: progress.error });
    setStage('failed');
    return progress;
  }

  setStage('announcing');
  progress.notificationId = await announceTransactionExport(input);

  setStage('emailing');
  progress.email = await emailTransactionExport(input);

  setStage('completed');
  return progress;
};
