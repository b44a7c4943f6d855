import { defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface LlmCategoriesInput {
  teamId: string;
}

/** What one pass of the `categoriseWithLlm` activity did. */
export interface LlmCategoriesPass {
  asked: number;
  applied: number;
  suggested: number;
  /** Rows were left for another pass. */
  more: boolean;
}

export interface LlmCategoriesResult {
  asked: number;
  applied: number;
  suggested: number;
  /** The model kept failing: the rows it was not asked about wait for the next request. */
  failed: boolean;
}

/** Transactions arrived (a sync, an import, a create): a run in progress makes one more pass. */
export const llmCategoriesRequested = defineSignal('llmCategoriesRequested');

export type LlmCategoriesWorkflow = (input: LlmCategoriesInput) => Promise<LlmCategoriesResult>;

export const llmCategoriesContract = workflowContract<LlmCategoriesWorkflow>('llmCategories');

/** One run per team at a time: arrivals while it asks join that run. */
export const llmCategoriesId = (teamId: string) => `llm-categories:${teamId}`;
