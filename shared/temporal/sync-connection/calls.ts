import type { TemporalGateway } from '../client';
import { ConnectionId, TeamId } from '../search-attribute-keys';
import { signalWithStart } from '../start';
import { syncConnectionContract, syncConnectionId, syncRequested } from './contract';

/**
 * Asks for a sync of a connection: signal-with-start on the business id, so requests that arrive
 * while one runs coalesce into it instead of starting more runs. Returns the workflow id.
 */
export function requestSync(
  temporal: TemporalGateway,
  input: { connectionId: string; teamId: string; manualSync: boolean },
): Promise<string> {
  return signalWithStart(temporal, syncConnectionContract, {
    workflowId: syncConnectionId(input.connectionId),
    args: [{ connectionId: input.connectionId, teamId: input.teamId }],
    signal: syncRequested,
    signalArgs: [{ manualSync: input.manualSync }],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: ConnectionId, value: input.connectionId },
    ],
  });
}
