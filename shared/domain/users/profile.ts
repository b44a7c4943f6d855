import type { Db } from '../../db/knex';
import { User } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import { assertSession, type Caller } from '../auth/principal';
import { teamAccess } from '../teams/access';
import type { UpdateUserBody, UserDto } from './schema';

const toDto = (u: User): UserDto => ({
  id: u.id,
  email: u.email,
  fullName: u.fullName,
  avatarUrl: u.avatarUrl,
  locale: u.locale,
  timezone: u.timezone,
  dateFormat: u.dateFormat,
  weekStartsOnMonday: u.weekStartsOnMonday,
  timeFormat: u.timeFormat,
  teamId: u.teamId,
  createdAt: toIso(u.createdAt),
});

export async function getMe(db: Db, caller: Caller): Promise<UserDto> {
  const user = await User.query(db).findById(caller.userId);
  if (!user) throw notFound('User not found');
  return toDto(user);
}

/** Changes only the fields sent. A new current team must be one the user belongs to (404 otherwise). */
export async function updateMe(db: Db, caller: Caller, body: UpdateUserBody): Promise<UserDto> {
  if (body.teamId !== undefined) {
    assertSession(caller, 'Switching the current team');
    await teamAccess(db, caller, body.teamId);
  }
  const user = (
    await User.query(db)
      .patch({ ...body, updatedAt: new Date() })
      .where({ id: caller.userId })
      .returning('*')
  ).at(0);
  if (!user) throw notFound('User not found');
  return toDto(user);
}

/** The persisted current team (a session may still name another per request with `x-team-id`). */
export const switchCurrentTeam = (db: Db, caller: Caller, teamId: string) => updateMe(db, caller, { teamId });

/**
 * Deletes the caller's account here (the identity provider keeps its own): memberships, API keys,
 * OAuth grants and conversations go with it. Refused while they are the last owner of a team, which
 * would be left with nobody to manage it.
 */
export async function deleteMe(db: Db, caller: Caller): Promise<void> {
  assertSession(caller, 'Deleting your account');
  await db.transaction(async (trx) => {
    await User.query(trx).findById(caller.userId).forUpdate().select('id');
    const soleOwnerOf = await trx('team_members as m')
      .join('teams as t', 't.id', 'm.teamId')
      .where({ 'm.userId': caller.userId, 'm.role': 'owner' })
      .whereNull('t.deletionRequestedAt')
      .whereNotExists((q) => {
        q.from('team_members as o').whereRaw('o.team_id = m.team_id').where('o.role', 'owner').whereNot('o.userId', caller.userId);
      })
      .orderBy('t.name')
      .select<{ name: string }[]>('t.name');
    if (soleOwnerOf.length) {
      throw conflict(
        `You are the last owner of ${soleOwnerOf.map((t) => t.name).join(', ')}: make another member an owner, or delete the team, first`,
      );
    }
    await User.query(trx).deleteById(caller.userId);
  });
}
