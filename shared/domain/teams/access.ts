import type { Db } from '../../db/knex';
import { TeamMember } from '../../db/models';
import { forbidden, notFound } from '../../errors';
import type { Caller } from '../auth/principal';
import type { TeamRole } from './schema';

/** The caller's standing in a team they address by id. */
export interface TeamAccess {
  teamId: string;
  userId: string;
  role: TeamRole;
}

/**
 * A team addressed by id, as the caller may see it: a session reaches every team its user belongs
 * to; an API key or OAuth token only its own. Any other team, or one being deleted, is 404, so ids
 * of other teams reveal nothing.
 */
export async function teamAccess(db: Db, caller: Caller, teamId: string): Promise<TeamAccess> {
  const member =
    caller.kind === 'session' || caller.teamId === teamId
      ? await TeamMember.query(db)
          .joinRelated('team')
          .where('team_members.teamId', teamId)
          .where('team_members.userId', caller.userId)
          .whereNull('team.deletionRequestedAt')
          .first()
          .select('team_members.role')
      : undefined;
  if (!member) throw notFound(`Team ${teamId} not found`);
  return { teamId, userId: caller.userId, role: member.role };
}

/** Owners manage members, invitations and the team's existence. */
export function assertOwner(access: TeamAccess, action: string): void {
  if (access.role !== 'owner') throw forbidden(`Only owners of the team can ${action}`);
}
