import type { TemporalGateway } from '../client';
import { ConnectionId, Stage, TeamId } from '../search-attribute-keys';
import { signalIfRunning, signalWithStart } from '../start';
import { summaryLine } from '../summary';
import { bankConsentContract, bankConsentWorkflowId, consentExpiryChanged, consentStage, type BankConsentStage } from './contract';

/** The connection by its bank. Not the expiry: a later signal moves it, and the summary stays as the run started. */
const summaryOf = (about: { institutionName: string | null; provider: string }) =>
  summaryLine('Bank consent expiry', about.institutionName, about.provider);

/**
 * Keeps the connection's consent timer on this expiry: signal-with-start on `bank-consent:<id>`, so a
 * waiting run moves its timers and an ended one (it notified the last expiry) is followed by a new run.
 */
export function watchConsentExpiry(
  temporal: TemporalGateway,
  input: { connectionId: string; teamId: string; expiresAt: Date; leadMs: number },
  about: { institutionName: string | null; provider: string },
): Promise<string> {
  const expiresAt = input.expiresAt.toISOString();
  return signalWithStart(temporal, bankConsentContract, {
    workflowId: bankConsentWorkflowId(input.connectionId),
    args: [{ connectionId: input.connectionId, teamId: input.teamId, expiresAt, leadMs: input.leadMs }],
    signal: consentExpiryChanged,
    signalArgs: [{ expiresAt }],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: ConnectionId, value: input.connectionId },
      { key: Stage, value: 'waiting' },
    ],
    summary: summaryOf(about),
  });
}

/** The connection went (or its consent no longer expires): a waiting timer ends without a notice. False when none waits. */
export function stopConsentTimer(temporal: TemporalGateway, connectionId: string): Promise<boolean> {
  return signalIfRunning(temporal, bankConsentWorkflowId(connectionId), consentExpiryChanged, { expiresAt: null });
}

export async function queryConsentStage(temporal: TemporalGateway, connectionId: string): Promise<BankConsentStage> {
  return (await temporal.client()).workflow.getHandle(bankConsentWorkflowId(connectionId)).query(consentStage);
}
