import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { ApiKey, OAuthConsent, OAuthToken, Team, TeamMember, User } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import type { Caller } from '../auth/principal';
import { assertOwner, teamAccess } from './access';
import type { MemberDto, TeamRole } from './schema';

export async function listMembers(db: Db, caller: Caller, teamId: string): Promise<MemberDto[]> {
  await teamAccess(db, caller, teamId);
  const members = await TeamMember.query(db)
    .where('team_members.teamId', teamId)
    .withGraphJoined('user')
    .orderBy([
      { column: 'team_members.createdAt', order: 'asc' },
      { column: 'team_members.userId', order: 'asc' },
    ]);
  return members.flatMap((m) =>
    m.user
      ? [
          {
            userId: m.userId,
            email: m.user.email,
            fullName: m.user.fullName,
            avatarUrl: m.user.avatarUrl,
            role: m.role,
            joinedAt: toIso(m.createdAt),
          },
        ]
      : [],
  );
}

/**
 * Membership changes of one team happen one at a time (the team row is locked), so two owners
 * demoting or removing each other at once cannot leave the team without an owner.
 */
async function lockMembership(trx: Knex, teamId: string, userId: string) {
  await Team.query(trx).findById(teamId).forUpdate().select('id');
  const member = await TeamMember.query(trx).findOne({ teamId, userId });
  if (!member) throw notFound(`User ${userId} is not a member of this team`);
  const owners = await TeamMember.query(trx).where({ teamId, role: 'owner' }).resultSize();
  return { member, isLastOwner: member.role === 'owner' && owners === 1 };
}

/** Owners only; the last owner cannot become a member (409). */
export async function changeRole(db: Db, caller: Caller, teamId: string, userId: string, role: TeamRole): Promise<MemberDto> {
  assertOwner(await teamAccess(db, caller, teamId), 'change roles');
  await db.transaction(async (trx) => {
    const { member, isLastOwner } = await lockMembership(trx, teamId, userId);
    if (member.role === role) return;
    if (isLastOwner) throw conflict('A team needs at least one owner: make another member an owner first');
    await TeamMember.query(trx).where({ teamId, userId }).patch({ role });
  });
  const updated = (await listMembers(db, caller, teamId)).find((m) => m.userId === userId);
  if (!updated) throw notFound(`User ${userId} is not a member of this team`);
  return updated;
}

/**
 * Removes a member (owners), or the caller themselves (leaving). The last owner can do neither (409):
 * they make someone else an owner, or delete the team. Whatever the user held in the team goes with
 * the membership: their API keys, OAuth grants and consents there, and it stops being their
 * current team; so access ends on the next request, and rejoining later brings nothing back.
 */
export async function removeMember(db: Db, caller: Caller, teamId: string, userId: string): Promise<void> {
  const access = await teamAccess(db, caller, teamId);
  const leaving = userId === caller.userId;
  if (!leaving) assertOwner(access, 'remove members');
  await db.transaction(async (trx) => {
    const { isLastOwner } = await lockMembership(trx, teamId, userId);
    if (isLastOwner) {
      throw conflict(
        leaving
          ? 'You are the last owner: make another member an owner before leaving, or delete the team'
          : 'The last owner cannot be removed: make another member an owner first',
      );
    }
    await TeamMember.query(trx).where({ teamId, userId }).delete();
    await ApiKey.query(trx).where({ teamId, userId }).delete();
    await OAuthToken.query(trx).where({ teamId, userId }).whereNull('revokedAt').patch({ revokedAt: new Date() });
    await OAuthConsent.query(trx).where({ teamId, userId }).delete();
    await User.query(trx).where({ id: userId, teamId }).patch({ teamId: null, updatedAt: new Date() });
  });
}
