import type { TemporalGateway } from '../client';
import { TeamId } from '../search-attribute-keys';
import { signalWithStart } from '../start';
import { summaryLine } from '../summary';
import { llmCategoriesContract, llmCategoriesId, llmCategoriesRequested } from './contract';

/**
 * Asks for the language model's categories of the team's transactions nothing else categorised:
 * signal-with-start on the team, so arrivals while a run asks coalesce into it. Returns the workflow id.
 */
export function requestLlmCategories(temporal: TemporalGateway, input: { teamId: string; teamName?: string | null }): Promise<string> {
  return signalWithStart(temporal, llmCategoriesContract, {
    workflowId: llmCategoriesId(input.teamId),
    args: [{ teamId: input.teamId }],
    signal: llmCategoriesRequested,
    signalArgs: [],
    searchAttributes: [{ key: TeamId, value: input.teamId }],
    summary: summaryLine('Categories from the language model', input.teamName),
  });
}
