import {
  ActivityFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { LlmCategoryActivities } from '../activities/categories/llm';
import { llmCategoriesRequested, type LlmCategoriesResult, type LlmCategoriesWorkflow } from '../shared/temporal/llm-categories/contract';

const { categoriseWithLlm } = proxyActivities<LlmCategoryActivities>({
  startToCloseTimeout: '10m',
  // The activity beats while it waits on the model: a worker lost mid-request is noticed within this.
  heartbeatTimeout: '30s',
  // A model that is down for a while is asked again for about 40 minutes, then the rows wait for the next arrival.
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 10 },
});

/** Bounds the history of a team whose transactions keep arriving while the model is asked. */
const EVENTS_PER_RUN = 500;

/**
 * LlmCategories (id `llm-categories:<teamId>`), started with signal-with-start after transactions
 * arrive (a sync pass, an import, a create) when a language model is configured: asks it about the
 * team's transactions nothing else categorised, pass after pass while rows are left or more arrived.
 * Apart from the sync and the import, so a slow or absent model delays neither; a model that keeps
 * failing ends the run, and the rows wait for the next one.
 */
export const llmCategories: LlmCategoriesWorkflow = async (input) => {
  let pending = true;
  const totals: LlmCategoriesResult = { asked: 0, applied: 0, suggested: 0, failed: false };
  setHandler(llmCategoriesRequested, () => {
    pending = true;
  });
  // The handler sets `pending` while a pass awaits; read it through a call, which the type checker does not narrow to false.
  const requestedSince = () => pending;
  while (pending) {
    pending = false;
    try {
      const pass = await categoriseWithLlm(input);
      totals.asked += pass.asked;
      totals.applied += pass.applied;
      totals.suggested += pass.suggested;
      if (pass.more) pending = true;
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      totals.failed = true;
      break;
    }
    const info = workflowInfo();
    if (requestedSince() && (info.continueAsNewSuggested || info.historyLength >= EVENTS_PER_RUN))
      await continueAsNew<typeof llmCategories>(input);
  }
  await condition(allHandlersFinished);
  return totals;
};
