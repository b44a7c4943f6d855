import { Context, heartbeat } from '@temporalio/activity';
import { pruneAll } from '../../shared/domain/retention/prune';
import { retentionWindows } from '../../shared/domain/retention/windows';
import type { RetentionKind } from '../../shared/temporal/retention/contract';
import type { ActivityDeps } from '../deps';

export function retentionActivities({ db, config }: ActivityDeps) {
  return {
    /**
     * Prunes one kind in batches, heartbeating the running total after each: a retry after a lost
     * worker starts from what its heartbeat said (the batches before it are gone already) and
     * reports the sum.
     */
    async pruneRetained({ kind, batchSize }: { kind: RetentionKind; batchSize: number }): Promise<number> {
      const { info, cancellationSignal } = Context.current();
      const before = typeof info.heartbeatDetails === 'number' ? info.heartbeatDetails : 0;
      const removed = await pruneAll(db, kind, {
        windowMs: retentionWindows(config)[kind],
        limit: batchSize,
        signal: cancellationSignal,
        onBatch: (n) => heartbeat(before + n),
      });
      return before + removed;
    },
  };
}

export type RetentionActivities = ReturnType<typeof retentionActivities>;
