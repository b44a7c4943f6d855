import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { Team, TeamMember, User } from '../../db/models';
import { conflict, notFound } from '../../errors';
import { newInboxId } from './inbox-id';

export interface NewTeam {
  name: string;
  baseCurrency?: string;
  countryCode?: string;
  fiscalYearStartMonth?: number;
  timezone?: string;
}

export async function createTeam(db: Db, input: NewTeam): Promise<Team> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await Team.query(db).insertAndFetch({
        name: input.name,
        baseCurrency: input.baseCurrency ?? null,
        countryCode: input.countryCode ?? null,
        fiscalYearStartMonth: input.fiscalYearStartMonth ?? null,
        timezone: input.timezone ?? null,
        inboxId: newInboxId(),
      });
    } catch (err) {
      // 31^10 ids make a clash rare; a clash is a unique violation and simply draws again.
      if (!isUniqueViolation(err, 'teams_inbox_id_key') || attempt >= 5) throw err;
    }
  }
}

/**
 * Creates a user in an existing team (as member) or in a new team (as its owner).
 * Users come from the external identity provider; this is how operators mirror them here.
 */
export async function createUserWithTeam(
  db: Db,
  input: { email: string; fullName?: string; teamId?: string; teamName?: string },
): Promise<{ user: User; team: Team; role: 'owner' | 'member' }> {
  return db.transaction(async (trx) => {
    const existing = await User.query(trx).whereRaw('lower(email) = lower(?)', [input.email]).first();
    if (existing) throw conflict(`A user with email ${input.email} already exists`);
    let team: Team | undefined;
    let role: 'owner' | 'member' = 'owner';
    if (input.teamId) {
      team = await Team.query(trx)
        .findById(input.teamId)
        .catch(() => undefined);
      if (!team) throw notFound(`Team ${input.teamId} not found`);
      role = 'member';
    } else {
      team = await createTeam(trx, { name: input.teamName ?? `${input.fullName ?? input.email}'s team` });
    }
    const user = await User.query(trx).insertAndFetch({ email: input.email, fullName: input.fullName ?? null, teamId: team.id });
    await TeamMember.query(trx).insert({ teamId: team.id, userId: user.id, role });
    return { user, team, role };
  });
}
