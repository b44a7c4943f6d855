import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { TeamMember, User } from '../../db/models';
import { conflict } from '../../errors';
import { createTeam } from '../teams/service';
import { createDefaultCategories } from '../categories/defaults';

/** A new user as the identity provider vouches for them: its subject, its verified email, its name. */
export interface ProvisionedIdentity {
  id: string;
  email: string;
  fullName?: string;
}

/**
 * Mirrors a user the identity provider signed in but we have never seen (AUTH_AUTO_PROVISION), with
 * a personal team they own, so the first request can already do something. Two first requests at
 * once create them once. An address already used by another user is a conflict: the same person
 * under two identities would otherwise see each other's teams.
 */
export async function provisionUser(db: Db, identity: ProvisionedIdentity): Promise<void> {
  try {
    await db.transaction(async (trx) => {
      const team = await createTeam(trx, { name: `${identity.fullName ?? identity.email.split('@')[0]}'s team` });
      await createDefaultCategories(trx, team.id, team.countryCode);
      await User.query(trx).insert({ id: identity.id, email: identity.email, fullName: identity.fullName ?? null, teamId: team.id });
      await TeamMember.query(trx).insert({ teamId: team.id, userId: identity.id, role: 'owner' });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_pkey')) return; // a concurrent first request created them
    if (isUniqueViolation(err, 'users_email_unique')) throw conflict(`Another user already signed up with ${identity.email}`);
    throw err;
  }
}
