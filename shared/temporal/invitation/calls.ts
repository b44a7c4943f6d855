import type { SignalDefinition } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { InvitationId, Stage, TeamId } from '../search-attribute-keys';
import { signalIfRunning, startOnce } from '../start';
import { day, summaryLine } from '../summary';
import {
  invitationAccepted,
  invitationContract,
  invitationDeclined,
  invitationRevoked,
  invitationStage,
  invitationWorkflowId,
  type InvitationDecision,
  type InvitationInput,
  type InvitationOutcome,
  type InvitationStage,
} from './contract';

/** The team and the role offered, and until when; the invitee's address stays out of the list. */
const summaryOf = (input: InvitationInput, about: { teamName: string; role: string }) =>
  summaryLine('Invitation', about.teamName, about.role, `expires ${day(new Date(input.expiresAt))}`);

/** Starts the run that emails the invitation, reminds once and expires it; returns the workflow id. */
export function startInvitation(
  temporal: TemporalGateway,
  input: InvitationInput,
  about: { teamName: string; role: string },
): Promise<string> {
  return startOnce(temporal, invitationContract, {
    workflowId: invitationWorkflowId(input.invitationId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: InvitationId, value: input.invitationId },
      { key: Stage, value: 'sending' },
    ],
    summary: summaryOf(input, about),
  });
}

const signals: Record<Exclude<InvitationOutcome, 'expired'>, SignalDefinition<[InvitationDecision]>> = {
  accepted: invitationAccepted,
  declined: invitationDeclined,
  revoked: invitationRevoked,
};

/** Tells the run a decision already written to the database; false when it has ended (nothing left to stop). */
export function signalInvitationDecided(
  temporal: TemporalGateway,
  invitationId: string,
  outcome: Exclude<InvitationOutcome, 'expired'>,
  decision: InvitationDecision,
): Promise<boolean> {
  return signalIfRunning(temporal, invitationWorkflowId(invitationId), signals[outcome], decision);
}

export async function queryInvitationStage(temporal: TemporalGateway, invitationId: string): Promise<InvitationStage> {
  return (await temporal.client()).workflow.getHandle(invitationWorkflowId(invitationId)).query(invitationStage);
}
