import type { TemporalGateway } from '../client';
import { ConnectionId, TeamId } from '../search-attribute-keys';
import { signalWithStart } from '../start';
import { summaryLine } from '../summary';
import { syncConnectionContract, syncConnectionId, syncRequested } from './contract';

/** The bank the connection is with and its provider: `Sync · First Platypus Bank · bank-a`. */
const summaryOf = (about: { institutionName: string | null; provider: string }) =>
  summaryLine('Sync', about.institutionName, about.provider);

/**
 * Asks for a sync of a connection: signal-with-start on the business id, so requests that arrive
 * while one runs coalesce into it instead of starting more runs. Returns the workflow id.
 */
export function requestSync(
  temporal: TemporalGateway,
  input: { connectionId: string; teamId: string; manualSync: boolean },
  about: { institutionName: string | null; provider: string },
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
    summary: summaryOf(about),
  });
}
