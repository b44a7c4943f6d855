import type { TemporalGateway } from '../client';
import { coalescedSignal } from '../coalesced-signal';
import { ConnectionId, TeamId } from '../search-attribute-keys';
import { signalWithStart } from '../start';
import { summaryLine } from '../summary';
import { syncConnectionContract, syncConnectionId, syncRequested } from './contract';

/** The bank the connection is with and its provider: `Sync · First Platypus Bank · bank-a`. */
const summaryOf = (about: { institutionName: string | null; provider: string }) =>
  summaryLine('Sync', about.institutionName, about.provider);

interface SyncAsk {
  input: { connectionId: string; teamId: string; manualSync: boolean };
  about: { institutionName: string | null; provider: string };
}

// A bank sends its webhooks for a connection in bursts: those that come while one is signalled go as one signal after it.
const signalSync = coalescedSignal<SyncAsk>(
  (temporal, { input, about }) =>
    signalWithStart(temporal, syncConnectionContract, {
      workflowId: syncConnectionId(input.connectionId),
      args: [{ connectionId: input.connectionId, teamId: input.teamId }],
      signal: syncRequested,
      signalArgs: [{ manualSync: input.manualSync }],
      searchAttributes: [
        { key: TeamId, value: input.teamId },
        { key: ConnectionId, value: input.connectionId },
      ],
      summary: summaryOf(about),
    }),
  (queued, more) => ({ ...more, input: { ...more.input, manualSync: queued.input.manualSync || more.input.manualSync } }),
);

/**
 * Asks for a sync of a connection: signal-with-start on the business id, so requests that arrive
 * while one runs coalesce into it instead of starting more runs. Returns the workflow id.
 */
export function requestSync(
  temporal: TemporalGateway,
  input: { connectionId: string; teamId: string; manualSync: boolean },
  about: { institutionName: string | null; provider: string },
): Promise<string> {
  return signalSync(temporal, syncConnectionId(input.connectionId), { input, about });
}
