import type { Db } from '../../db/knex';
import { User, type Team } from '../../db/models';
import { findSession } from '../auth/credentials';

/** A signed-in user with the team they act in, for the consent page. */
export interface SessionUserRecord {
  userId: string;
  email: User['email'];
  teamId: string;
  teamName: Team['name'];
}

/** The user and the team their session acts in (as for the API), in one query; undefined without one. */
export async function findSessionUser(db: Db, userId: string): Promise<SessionUserRecord | undefined> {
  const session = await findSession(db, userId);
  if (!session?.teamId || session.teamName === null) return undefined;
  return { userId: session.userId, email: session.email, teamId: session.teamId, teamName: session.teamName };
}

/** Where to write to a user and what to call them; undefined once the user is gone. */
export async function findUserContact(db: Db, userId: string): Promise<Pick<User, 'email' | 'fullName'> | undefined> {
  return User.query(db).findById(userId).select('email', 'fullName');
}
