import {
  ActivityFailure,
  ApplicationFailure,
  continueAsNew,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { ApplyRulesActivities } from '../activities/rules/apply';
import {
  applyRulesProgress,
  type ApplyRulesProgress,
  type ApplyRulesStage,
  type ApplyRulesWorkflow,
} from '../shared/temporal/apply-rules/contract';
import { Stage, TeamId } from '../shared/temporal/search-attribute-keys';

// A chunk heartbeats after every batch, so a lost worker is noticed in 30 s and the retry resumes
// after the last committed batch.
const { applyRulesChunk } = proxyActivities<ApplyRulesActivities>({
  startToCloseTimeout: '30m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
});
const { markRuleRunRunning, finishRuleRun } = proxyActivities<ApplyRulesActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/** Chunks before the run continues as new, so its history stays short over millions of rows. */
const CHUNKS_PER_RUN = 200;

const n = (x: number) => x.toLocaleString('en');

function describe(p: ApplyRulesProgress): string {
  const counts = `read ${n(p.scanned)}, matched ${n(p.matched)}, ${p.dryRun ? 'would change' : 'changed'} ${n(p.changed)}`;
  switch (p.stage) {
    case 'applying':
      return `Applying: ${counts}`;
    case 'completed':
      return `Done: ${counts}`;
    case 'failed':
      return `Failed after ${counts}: ${p.error ?? 'unknown error'}`;
  }
}

/**
 * ApplyRules (id `apply-rules:<runId>`): one rule over a team's existing transactions, in (date, id)
 * order, chunk by chunk. The position and counts live on the run's row, written with each batch,
 * so every chunk (first try or retry) goes on from where the last committed batch left off.
 */
export const applyRules: ApplyRulesWorkflow = async (input) => {
  const progress: ApplyRulesProgress = {
    runId: input.runId,
    stage: 'applying',
    dryRun: false,
    scanned: 0,
    matched: 0,
    changed: 0,
    error: null,
  };
  setHandler(applyRulesProgress, () => progress);
  const setStage = (stage: ApplyRulesStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
    setCurrentDetails(describe(progress));
  };
  upsertSearchAttributes([
    { key: TeamId, value: input.teamId },
    { key: Stage, value: progress.stage },
  ]);
  setCurrentDetails(describe(progress));

  try {
    const run = await markRuleRunRunning(input);
    if (run) progress.dryRun = run.dryRun;
    for (let i = 0; i < CHUNKS_PER_RUN; i++) {
      const chunk = await applyRulesChunk(input);
      progress.scanned = chunk.scanned;
      progress.matched = chunk.matched;
      progress.changed = chunk.changed;
      setCurrentDetails(describe(progress));
      if (chunk.done) {
        await finishRuleRun(input);
        setStage('completed');
        return progress;
      }
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    progress.error = err.cause instanceof ApplicationFailure ? err.cause.message : err.message;
    await finishRuleRun({ ...input, error: progress.error });
    setStage('failed');
    return progress;
  }
  // Past CHUNKS_PER_RUN the run goes on in a fresh history; the position is on the run's row.
  return continueAsNew<ApplyRulesWorkflow>(input);
};
