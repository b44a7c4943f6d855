import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { Team, TeamInvitation, TeamMember, User, type InvitationStatus } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { signalInvitationDecided, startInvitation } from '../../temporal/invitation/calls';
import { assertSession, type Caller } from '../auth/principal';
import { notify } from '../notifications/service';
import { assertOwner, teamAccess } from './access';
import { teamNameOf } from './current';
import type { CreateInvitationBody, InvitationDto, MyTeamDto } from './schema';
import { getTeamFor } from './teams';

/** What the invitation run and its emails need to know: when it reminds, when it expires. */
export interface InvitationTiming {
  ttlMs: number;
  now?: Date;
}

/** One reminder a day before expiry; for short lifetimes (tests) halfway through. */
export const reminderLeadMs = (ttlMs: number) => Math.min(86_400_000, Math.floor(ttlMs / 2));

/** An invitation with its team and who sent it, as every reader shows it. */
export interface InvitationRecord {
  invitation: TeamInvitation;
  teamName: string;
  inviter: Pick<User, 'id' | 'fullName' | 'email'> | null;
}

export const toInvitationDto = ({ invitation: i, teamName, inviter }: InvitationRecord): InvitationDto => ({
  id: i.id,
  teamId: i.teamId,
  teamName,
  email: i.email,
  role: i.role,
  status: i.status,
  invitedBy: inviter ? { id: inviter.id, fullName: inviter.fullName, email: inviter.email } : null,
  expiresAt: toIso(i.expiresAt),
  createdAt: toIso(i.createdAt),
});

async function withTeamAndInviter(db: Db, invitations: TeamInvitation[]): Promise<InvitationRecord[]> {
  if (invitations.length === 0) return [];
  const teams = await Team.query(db)
    .whereIn('id', [...new Set(invitations.map((i) => i.teamId))])
    .select('id', 'name');
  const inviterIds = [...new Set(invitations.flatMap((i) => (i.invitedBy ? [i.invitedBy] : [])))];
  const inviters = inviterIds.length ? await User.query(db).whereIn('id', inviterIds).select('id', 'fullName', 'email') : [];
  return invitations.map((invitation) => ({
    invitation,
    teamName: teams.find((t) => t.id === invitation.teamId)?.name ?? '',
    inviter: inviters.find((u) => u.id === invitation.invitedBy) ?? null,
  }));
}

/** One invitation with its team and inviter (the invitation emails); undefined once it is gone. */
export async function findInvitation(db: Db, invitationId: string): Promise<InvitationRecord | undefined> {
  const invitation = await TeamInvitation.query(db).findById(invitationId);
  return invitation ? (await withTeamAndInviter(db, [invitation]))[0] : undefined;
}

/**
 * Invites someone by email (owners only). The Invitation workflow emails them, reminds them once
 * and expires the invitation; a member or an address with an invitation waiting is a conflict.
 */
export async function inviteMember(
  db: Db,
  temporal: TemporalGateway,
  caller: Caller,
  teamId: string,
  body: CreateInvitationBody,
  timing: InvitationTiming,
): Promise<InvitationDto> {
  assertOwner(await teamAccess(db, caller, teamId), 'invite members');
  const member = await TeamMember.query(db)
    .where('team_members.teamId', teamId)
    .joinRelated('user', { alias: 'u' })
    .whereRaw('lower(u.email) = lower(?)', [body.email])
    .first();
  if (member) throw conflict(`${body.email} is already a member of this team`);
  const now = timing.now ?? new Date();
  const expiresAt = new Date(now.getTime() + timing.ttlMs);
  let invitation: TeamInvitation;
  try {
    invitation = await TeamInvitation.query(db).insertAndFetch({
      teamId,
      email: body.email,
      role: body.role,
      invitedBy: caller.userId,
      expiresAt,
    });
  } catch (err) {
    if (isUniqueViolation(err, 'team_invitations_pending_unique'))
      throw conflict(`An invitation to ${body.email} is already waiting; revoke it to send a new one`);
    throw err;
  }
  try {
    await startInvitation(
      temporal,
      {
        invitationId: invitation.id,
        teamId,
        remindAt: new Date(expiresAt.getTime() - reminderLeadMs(timing.ttlMs)).toISOString(),
        expiresAt: expiresAt.toISOString(),
      },
      { teamName: (await teamNameOf(db, teamId)) ?? teamId, role: body.role },
    );
  } catch (err) {
    // Without its run nobody would be emailed: take the invitation back so inviting again works.
    await TeamInvitation.query(db).deleteById(invitation.id);
    throw err;
  }
  return toInvitationDto((await withTeamAndInviter(db, [invitation]))[0]);
}

/** The team's invitations still waiting for an answer, newest first. */
export async function listTeamInvitations(db: Db, caller: Caller, teamId: string): Promise<InvitationDto[]> {
  await teamAccess(db, caller, teamId);
  const pending = await TeamInvitation.query(db)
    .where({ teamId, status: 'pending' })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return (await withTeamAndInviter(db, pending)).map(toInvitationDto);
}

/** Answers a decision to the run (no reminder, no expiry any more). The database already holds it, so a run that is gone changes nothing. */
async function tellRun(temporal: TemporalGateway, id: string, outcome: 'accepted' | 'declined' | 'revoked', userId: string | null) {
  await signalInvitationDecided(temporal, id, outcome, { userId }).catch(() => false);
}

/** Owners take back an invitation that waits; the link stops working at once. */
export async function revokeInvitation(
  db: Db,
  temporal: TemporalGateway,
  caller: Caller,
  teamId: string,
  invitationId: string,
): Promise<void> {
  assertOwner(await teamAccess(db, caller, teamId), 'revoke invitations');
  const invitation = await TeamInvitation.query(db).findOne({ id: invitationId, teamId });
  if (!invitation) throw notFound(`Invitation ${invitationId} not found`);
  const changed = await TeamInvitation.query(db)
    .where({ id: invitationId, status: 'pending' })
    .patch({ status: 'revoked', decidedAt: new Date() });
  if (!changed) throw conflict(`This invitation was already ${invitation.status}`);
  await tellRun(temporal, invitationId, 'revoked', caller.userId);
}

/** Invitations waiting for the caller (by their email address), to any team. */
export async function listMyInvitations(db: Db, caller: Caller): Promise<InvitationDto[]> {
  const user = await User.query(db).findById(caller.userId).select('email');
  if (!user) return [];
  const pending = await TeamInvitation.query(db)
    .where({ status: 'pending' })
    .whereRaw('lower(email) = lower(?)', [user.email])
    .where('expiresAt', '>', new Date())
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return (await withTeamAndInviter(db, pending)).map(toInvitationDto);
}

const decidedAlready = (status: InvitationStatus) =>
  conflict(status === 'expired' ? 'This invitation has expired; ask for a new one' : `This invitation was ${status}`);

/**
 * Accepts an invitation addressed to the caller's email. The membership is added once however often
 * it is clicked: the invitation row is locked, and accepting it again answers as the first time did.
 * It becomes the caller's current team when they have none.
 */
export async function acceptInvitation(
  db: Db,
  temporal: TemporalGateway,
  caller: Caller,
  invitationId: string,
  inboxDomain: string,
): Promise<{ invitation: InvitationDto; team: MyTeamDto }> {
  assertSession(caller, 'Accepting an invitation');
  const first = await db.transaction(async (trx) => {
    const { invitation, user } = await lockMine(trx, caller, invitationId);
    if (invitation.status === 'accepted' && invitation.acceptedBy === caller.userId) return false;
    if (invitation.status !== 'pending') throw decidedAlready(invitation.status);
    if (invitation.expiresAt.getTime() <= Date.now()) throw decidedAlready('expired');
    const added = await TeamMember.query(trx)
      .insert({ teamId: invitation.teamId, userId: caller.userId, role: invitation.role })
      .onConflict(['teamId', 'userId'])
      .ignore()
      .returning('id');
    await TeamInvitation.query(trx).findById(invitationId).patch({ status: 'accepted', acceptedBy: caller.userId, decidedAt: new Date() });
    if (!user.teamId) await User.query(trx).findById(caller.userId).patch({ teamId: invitation.teamId, updatedAt: new Date() });
    if (added.id) {
      await notify(trx, {
        teamId: invitation.teamId,
        type: 'team_member_joined',
        metadata: { userId: caller.userId, invitationId, role: invitation.role },
      });
    }
    return true;
  });
  if (first) await tellRun(temporal, invitationId, 'accepted', caller.userId);
  const record = await findInvitation(db, invitationId);
  if (!record) throw notFound(`Invitation ${invitationId} not found`);
  return { invitation: toInvitationDto(record), team: await getTeamFor(db, caller, record.invitation.teamId, inboxDomain) };
}

/** Declines an invitation addressed to the caller; declining twice is the same as once. */
export async function declineInvitation(db: Db, temporal: TemporalGateway, caller: Caller, invitationId: string): Promise<InvitationDto> {
  assertSession(caller, 'Declining an invitation');
  const first = await db.transaction(async (trx) => {
    const { invitation } = await lockMine(trx, caller, invitationId);
    if (invitation.status === 'declined') return false;
    if (invitation.status !== 'pending') throw decidedAlready(invitation.status);
    await TeamInvitation.query(trx).findById(invitationId).patch({ status: 'declined', decidedAt: new Date() });
    return true;
  });
  if (first) await tellRun(temporal, invitationId, 'declined', caller.userId);
  const record = await findInvitation(db, invitationId);
  if (!record) throw notFound(`Invitation ${invitationId} not found`);
  return toInvitationDto(record);
}

/** The invitation, locked, when it is addressed to the caller's email; 404 otherwise (ids of others' invitations reveal nothing). */
async function lockMine(trx: Db, caller: Caller, invitationId: string) {
  const user = await User.query(trx).findById(caller.userId);
  const invitation = await TeamInvitation.query(trx).findById(invitationId).forUpdate();
  if (!user || !invitation || invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    throw notFound(`Invitation ${invitationId} not found`);
  }
  return { invitation, user };
}

/** The run's end: a pending invitation becomes expired; any other status (decided meanwhile) stays and is returned. */
export async function expireInvitation(db: Db, invitationId: string): Promise<InvitationStatus | 'gone'> {
  const expired = await TeamInvitation.query(db)
    .where({ id: invitationId, status: 'pending' })
    .patch({ status: 'expired', decidedAt: new Date() });
  if (expired) return 'expired';
  return (await TeamInvitation.query(db).findById(invitationId).select('status'))?.status ?? 'gone';
}

/** The reminder went out: its time is kept with the invitation. */
export async function markInvitationReminded(db: Db, invitationId: string): Promise<void> {
  await TeamInvitation.query(db).findById(invitationId).patch({ remindedAt: new Date() });
}

/** The team is being deleted: every invitation still waiting is revoked. Returns how many. */
export async function revokePendingInvitations(db: Db, teamId: string): Promise<number> {
  return TeamInvitation.query(db).where({ teamId, status: 'pending' }).patch({ status: 'revoked', decidedAt: new Date() });
}
