import { Context } from '@temporalio/activity';
import { applyRunChunk, markRuleRun, ruleRunFor } from '../../shared/domain/transaction-rules/run';
import type { ApplyRulesChunk, ApplyRulesInput } from '../../shared/temporal/apply-rules/contract';
import type { ActivityDeps } from '../deps';

/** Rows one activity call reads before it reports back to the workflow (its progress query). */
const CHUNK_ROWS = 20_000;

export function applyRulesActivities({ db }: ActivityDeps) {
  return {
    /** Marks the run running; answers whether it is a dry run (null: the run is gone with its rule or team). */
    async markRuleRunRunning({ runId, teamId }: ApplyRulesInput): Promise<{ dryRun: boolean } | null> {
      await markRuleRun(db, teamId, runId, 'running');
      const run = await ruleRunFor(db, teamId, runId);
      return run ? { dryRun: run.dryRun } : null;
    },

    /**
     * The next chunk of batches. Each batch commits the run's position with its changes, so a retry
     * (a lost worker) goes on from the last committed batch, never applying one twice; the heartbeat
     * carries the same position for an operator to read.
     */
    applyRulesChunk: ({ runId, teamId }: ApplyRulesInput): Promise<ApplyRulesChunk> =>
      applyRunChunk(db, teamId, runId, { maxRows: CHUNK_ROWS, afterBatch: (last) => Context.current().heartbeat({ last }) }),

    finishRuleRun: ({ runId, teamId, error }: ApplyRulesInput & { error?: string }) =>
      markRuleRun(db, teamId, runId, error ? 'failed' : 'completed', error),
  };
}

export type ApplyRulesActivities = ReturnType<typeof applyRulesActivities>;
