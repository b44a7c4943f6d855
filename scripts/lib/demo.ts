import { signSessionToken } from '../../api/auth/session-token';
import type { Config } from '../../shared/config';
import type { Db } from '../../shared/db/knex';
import { Team, User } from '../../shared/db/models';
import { createUserWithTeam } from '../../shared/domain/teams/service';

export const DEMO_EMAIL = 'demo@example.com';

/** The demo team and user: created on the first run, found on later ones; a fresh 24 h session token each time. */
export async function ensureDemo(db: Db, config: Config) {
  let user = await User.query(db).whereRaw('lower(email) = ?', [DEMO_EMAIL]).first();
  let created = false;
  if (!user) {
    ({ user } = await createUserWithTeam(db, { email: DEMO_EMAIL, fullName: 'Demo User', teamName: 'Demo Team' }));
    created = true;
  }
  // Someone may have moved the demo user out of its team, or deleted the team, since the first run.
  const { teamId } = user;
  if (!teamId) throw new Error(`${DEMO_EMAIL} belongs to no team`);
  if (created) await seedDemoTransactions(db, teamId);
  const team = await Team.query(db).findById(teamId);
  if (!team) throw new Error(`the demo team ${teamId} no longer exists`);
  if (!config.AUTH_JWT_SECRET) throw new Error('AUTH_JWT_SECRET is needed to issue the demo session token');
  return {
    created,
    email: user.email,
    userId: user.id,
    teamId: team.id,
    teamName: team.name,
    inboxId: team.inboxId,
    sessionToken: await signSessionToken(config.AUTH_JWT_SECRET, user.id),
  };
}

/** A handful of transactions so GET /transactions shows something on a fresh install. */
async function seedDemoTransactions(db: Db, teamId: string) {
  const today = new Date();
  const day = (n: number) => new Date(today.getTime() - n * 86_400_000).toISOString().slice(0, 10);
  const rows: Array<[string, number, string]> = [
    ['Office rent', -1850, 'transfer'],
    ['Customer payment — Northwind', 4200, 'ach'],
    ['Cloud hosting', -312.4, 'card_purchase'],
    ['Coffee beans', -23.9, 'card_purchase'],
    ['Software subscription', -49, 'card_purchase'],
    ['Customer payment — Contoso', 1250, 'wire'],
  ];
  await db('transactions').insert(
    rows.map(([name, amount, method], i) => ({ teamId, date: day(i * 3), name, amount, currency: 'EUR', method, manual: true })),
  );
}
