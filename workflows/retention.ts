import { proxyActivities, setCurrentDetails, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { RetentionActivities } from '../activities/retention/prune';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  RETENTION_KINDS,
  retentionProgress,
  type RetentionProgress,
  type RetentionStage,
  type RetentionWorkflow,
} from '../shared/temporal/retention/contract';

// A batch is one short statement: a worker lost mid-kind is noticed within the heartbeat timeout.
const { pruneRetained } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '1h',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '10m' },
});

const words = (kind: string) => kind.replaceAll('_', ' ');

function describe(p: RetentionProgress): string {
  const done = Object.entries(p.removed)
    .map(([kind, n]) => `${words(kind)} ${n.toLocaleString('en')}`)
    .join(', ');
  if (p.stage === 'starting') return 'Starting';
  if (p.stage === 'done') return done ? `Removed ${p.total.toLocaleString('en')}: ${done}` : 'Nothing to remove';
  return `Pruning ${words(p.stage)}${done ? `; removed so far: ${done}` : ''}`;
}

/**
 * Retention (the `retention-daily` schedule): prunes each kind in turn, in batches (see
 * shared/domain/retention/prune.ts for what each keeps), and returns how many rows of each it
 * removed; a query and the run's current details say where it is.
 */
export const retention: RetentionWorkflow = async ({ batchSize }) => {
  const progress: RetentionProgress = { stage: 'starting', removed: {}, total: 0 };
  setHandler(retentionProgress, () => progress);
  const setStage = (stage: RetentionStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
    setCurrentDetails(describe(progress));
  };
  setCurrentDetails(describe(progress));
  for (const kind of RETENTION_KINDS) {
    setStage(kind);
    const removed = await pruneRetained({ kind, batchSize });
    progress.removed[kind] = removed;
    progress.total += removed;
  }
  setStage('done');
  return progress;
};
