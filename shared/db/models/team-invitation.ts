import { TeamScopedModel } from './base';

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export class TeamInvitation extends TeamScopedModel {
  static override tableName = 'team_invitations';
  email!: string;
  role!: 'owner' | 'member';
  status!: InvitationStatus;
  invitedBy!: string | null;
  acceptedBy!: string | null;
  expiresAt!: Date;
  decidedAt!: Date | null;
  remindedAt!: Date | null;
}
