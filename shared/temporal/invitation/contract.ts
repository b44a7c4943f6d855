import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface InvitationInput {
  invitationId: string;
  teamId: string;
  /** ISO 8601: the one reminder goes out then, unless the invitation was decided. */
  remindAt: string;
  /** ISO 8601: after this nobody can accept it. */
  expiresAt: string;
}

export type InvitationOutcome = 'accepted' | 'declined' | 'revoked' | 'expired';
export type InvitationStage = 'sending' | 'waiting' | 'reminded' | InvitationOutcome;

export interface InvitationResult {
  outcome: InvitationOutcome;
  reminded: boolean;
}

/** A decision the API has already written to the database: the run only stops waiting (no reminder, no expiry). */
export interface InvitationDecision {
  /** Who decided: the invitee (accept, decline) or an owner (revoke); null when the team itself went. */
  userId: string | null;
}

/** What an email activity found: the invitation may have been decided while the run slept. */
export interface InvitationEmailResult {
  sent: boolean;
  status: 'pending' | InvitationOutcome;
}

export const invitationAccepted = defineSignal<[InvitationDecision]>('invitationAccepted');
export const invitationDeclined = defineSignal<[InvitationDecision]>('invitationDeclined');
export const invitationRevoked = defineSignal<[InvitationDecision]>('invitationRevoked');
export const invitationStage = defineQuery<InvitationStage>('invitationStage');

export type InvitationWorkflow = (input: InvitationInput) => Promise<InvitationResult>;

export const invitationContract = workflowContract<InvitationWorkflow>('invitation');

/** One run per invitation: inviting again while one waits is refused by the database, never a second run. */
export const invitationWorkflowId = (invitationId: string) => `invitation:${invitationId}`;
