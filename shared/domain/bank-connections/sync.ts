import { TypedSearchAttributes } from '@temporalio/common';
import type { TemporalGateway } from '../../temporal/client';
import { workflowIds } from '../../temporal/names';
import { searchAttributeKeys } from '../../temporal/search-attributes';
import type { syncConnection } from '../../../workflows/sync-connection';

/**
 * Asks for a sync of a connection: signal-with-start on the business id, so requests that arrive
 * while one runs coalesce into it instead of starting more runs.
 */
export async function requestSync(temporal: TemporalGateway, input: { connectionId: string; teamId: string; manualSync: boolean }): Promise<string> {
  const workflowId = workflowIds.syncConnection(input.connectionId);
  const client = await temporal.client();
  await client.workflow.signalWithStart<typeof syncConnection, [{ manualSync: boolean }]>('syncConnection', {
    workflowId,
    taskQueue: temporal.options.taskQueue,
    args: [{ connectionId: input.connectionId, teamId: input.teamId }],
    signal: 'syncRequested',
    signalArgs: [{ manualSync: input.manualSync }],
    typedSearchAttributes: new TypedSearchAttributes([
      { key: searchAttributeKeys.TeamId, value: input.teamId },
      { key: searchAttributeKeys.ConnectionId, value: input.connectionId },
    ]),
  });
  return workflowId;
}
