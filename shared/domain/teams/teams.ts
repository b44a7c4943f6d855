import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { Team, TeamMember, User } from '../../db/models';
import { assertSession, type Caller } from '../auth/principal';
import { assertOwner, teamAccess } from './access';
import { toTeamDto, updateCurrentTeam, type UpdateTeamBody } from './current';
import { newInboxId } from './inbox-id';
import type { CreateTeamBody, MyTeamDto, TeamRole } from './schema';
import { createTeam } from './service';
import { createDefaultCategories } from '../categories/defaults';

const myTeam = (team: Team, role: TeamRole, caller: Caller, inboxDomain: string): MyTeamDto => ({
  ...toTeamDto(team, inboxDomain),
  role,
  current: caller.teamId === team.id,
});

/**
 * The teams the caller belongs to, in the order they joined them. An API key or OAuth token sees
 * only the team it is bound to, even when its user belongs to more.
 */
export async function listMyTeams(db: Db, caller: Caller, inboxDomain: string): Promise<MyTeamDto[]> {
  const memberships = await TeamMember.query(db)
    .where('team_members.userId', caller.userId)
    .joinRelated('team')
    .whereNull('team.deletionRequestedAt')
    .modify((q) => {
      if (caller.kind !== 'session') q.where('team_members.teamId', caller.teamId ?? '');
    })
    .withGraphFetched('team')
    .orderBy([
      { column: 'team_members.createdAt', order: 'asc' },
      { column: 'team_members.teamId', order: 'asc' },
    ]);
  return memberships.flatMap((m) => (m.team ? [myTeam(m.team, m.role, caller, inboxDomain)] : []));
}

/**
 * Creates a team owned by the caller. It becomes their current team when asked (`switchTeam`) or
 * when they have none. Only a signed-in user creates teams: keys and tokens act in their own.
 */
export async function createTeamFor(db: Db, caller: Caller, body: CreateTeamBody, inboxDomain: string): Promise<MyTeamDto> {
  assertSession(caller, 'Creating a team');
  const { switchTeam, ...fields } = body;
  const team = await db.transaction(async (trx) => {
    const created = await createTeam(trx, fields);
    await createDefaultCategories(trx, created.id, created.countryCode);
    await TeamMember.query(trx).insert({ teamId: created.id, userId: caller.userId, role: 'owner' });
    const user = await User.query(trx).findById(caller.userId).select('teamId').forUpdate();
    if (switchTeam || !user?.teamId) await User.query(trx).findById(caller.userId).patch({ teamId: created.id, updatedAt: new Date() });
    return created;
  });
  // The request was made from another team (or none): `current` says where the next one acts.
  return myTeam(team, 'owner', { ...caller, teamId: switchTeam || caller.teamId === null ? team.id : caller.teamId }, inboxDomain);
}

export async function getTeamFor(db: Db, caller: Caller, teamId: string, inboxDomain: string): Promise<MyTeamDto> {
  const access = await teamAccess(db, caller, teamId);
  const team = await Team.query(db).findById(teamId);
  if (!team) throw new Error(`team ${teamId} vanished`);
  return myTeam(team, access.role, caller, inboxDomain);
}

/** Any member may change the team's settings, as on `/teams/current`. */
export async function updateTeamFor(db: Db, caller: Caller, teamId: string, body: UpdateTeamBody, inboxDomain: string): Promise<MyTeamDto> {
  const access = await teamAccess(db, caller, teamId);
  const team = await updateCurrentTeam(db, teamId, inboxDomain, body);
  return { ...team, role: access.role, current: caller.teamId === teamId };
}

/**
 * A new inbox id, for an address that attracts spam or leaked: mail to the old address and "Connect
 * inbox <old id>" stop reaching the team; chat numbers already connected stay connected. Owners only.
 */
export async function regenerateInboxId(db: Db, caller: Caller, teamId: string, inboxDomain: string): Promise<MyTeamDto> {
  const access = await teamAccess(db, caller, teamId);
  assertOwner(access, 'change the inbox address');
  for (let attempt = 0; ; attempt++) {
    try {
      const [team] = await Team.query(db).patch({ inboxId: newInboxId(), updatedAt: new Date() }).where({ id: teamId }).returning('*');
      return myTeam(team, access.role, caller, inboxDomain);
    } catch (err) {
      if (!isUniqueViolation(err, 'teams_inbox_id_key') || attempt >= 5) throw err;
    }
  }
}
