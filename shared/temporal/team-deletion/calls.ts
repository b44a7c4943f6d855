import { WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import { teamDeletionContract, teamDeletionId, teamDeletionProgress, type TeamDeletionInput, type TeamDeletionProgress } from './contract';

/** Starts the deletion of a team once; asking again while it runs finds the same run. Returns the workflow id. */
export function startTeamDeletion(temporal: TemporalGateway, input: TeamDeletionInput, about: { teamName: string }): Promise<string> {
  return startOnce(temporal, teamDeletionContract, {
    workflowId: teamDeletionId(input.teamId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: Stage, value: 'starting' },
    ],
    summary: summaryLine('Team deletion', about.teamName),
  });
}

/** Where the deletion of a team is, running or finished (Temporal answers queries on closed runs); null when there is none. */
export async function queryTeamDeletion(temporal: TemporalGateway, teamId: string): Promise<TeamDeletionProgress | null> {
  try {
    return await (await temporal.client()).workflow.getHandle(teamDeletionId(teamId)).query(teamDeletionProgress);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
