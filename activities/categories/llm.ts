import { heartbeat, log } from '@temporalio/activity';
import { categoriseWithLlm } from '../../shared/domain/learned-categories/llm';
import type { LlmCategoriesInput, LlmCategoriesPass } from '../../shared/temporal/llm-categories/contract';
import type { ActivityDeps } from '../deps';

/** Beats while a request waits on the model, so a worker lost mid-request is noticed within the heartbeat timeout. */
const BEAT_MS = 5_000;

export function llmCategoryActivities({ db, categoryLlm }: ActivityDeps) {
  return {
    /** One pass of the language model over the team's transactions nothing else categorised; a failing model is retried. */
    async categoriseWithLlm(input: LlmCategoriesInput): Promise<LlmCategoriesPass> {
      // The worker's config lost the model since the run was requested: nothing to ask.
      if (!categoryLlm) return { asked: 0, applied: 0, suggested: 0, more: false };
      const beat = setInterval(() => heartbeat(), BEAT_MS);
      try {
        return await categoriseWithLlm(db, categoryLlm, input.teamId);
      } catch (err) {
        log.warn('the language model did not categorise; the transactions wait for a retry', {
          teamId: input.teamId,
          error: String(err),
        });
        throw err;
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type LlmCategoryActivities = ReturnType<typeof llmCategoryActivities>;
