import { expireInvitation, findInvitation, markInvitationReminded } from '../../shared/domain/teams/invitations';
import type { InvitationEmailResult, InvitationOutcome } from '../../shared/temporal/invitation/contract';
import type { ActivityDeps } from '../deps';

const roleWords = { owner: 'an owner', member: 'a member' } as const;

export function invitationActivities({ db, mailer, config }: ActivityDeps) {
  return {
    /**
     * The invitation email, or its one reminder. Nothing is sent for an invitation decided while
     * the run slept (the database is the truth; a signal may have been lost): the run ends with it.
     */
    async sendInvitationEmail(input: { invitationId: string; kind: 'invitation' | 'reminder' }): Promise<InvitationEmailResult> {
      const record = await findInvitation(db, input.invitationId);
      if (!record) return { sent: false, status: 'revoked' };
      const { invitation, teamName, inviter } = record;
      if (invitation.status !== 'pending') return { sent: false, status: invitation.status };
      const who = inviter?.fullName ?? inviter?.email ?? 'A team owner';
      const link = `${config.DASHBOARD_URL.replace(/\/$/, '')}/invitations/${invitation.id}`;
      const expires = invitation.expiresAt.toUTCString();
      const text = [
        'Hello,',
        '',
        input.kind === 'invitation'
          ? `${who} invited you to join the team "${teamName}" as ${roleWords[invitation.role]}.`
          : `A reminder: ${who} invited you to join the team "${teamName}" as ${roleWords[invitation.role]}, and the invitation expires soon.`,
        '',
        `Accept or decline it here: ${link}`,
        `Sign in with ${invitation.email} to accept. The invitation expires on ${expires}.`,
        '',
        'If you did not expect this, ignore this email.',
      ].join('\n');
      const subject =
        input.kind === 'invitation'
          ? `${who} invited you to join ${teamName}`
          : `Reminder: your invitation to join ${teamName} expires soon`;
      await mailer.send({ to: invitation.email, subject, text });
      if (input.kind === 'reminder') await markInvitationReminded(db, invitation.id);
      return { sent: true, status: 'pending' };
    },

    /** Expires the invitation unless it was decided meanwhile; returns how it ended. */
    async expireInvitation(input: { invitationId: string }): Promise<InvitationOutcome> {
      const status = await expireInvitation(db, input.invitationId);
      return status === 'pending' || status === 'gone' ? 'revoked' : status;
    },
  };
}

export type InvitationActivities = ReturnType<typeof invitationActivities>;
