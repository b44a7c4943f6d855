import { createHmac } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../../shared/config';
import type { Db } from '../../shared/db/knex';
import { safeEqual } from '../../shared/domain/crypto/tokens';
import { unauthorized } from '../../shared/errors';
import { createSessionVerifier } from '../auth/session-token';

export const SESSION_COOKIE = 'svc_session';

export interface SessionUser {
  userId: string;
  teamId: string;
  email: string;
  teamName: string;
  via: 'cookie' | 'bearer';
  token: string;
}

/**
 * The signed-in user of a browser (session cookie holding the identity provider's JWT) or of an API
 * caller (Bearer session JWT). Only session tokens count here: API keys and OAuth tokens cannot consent.
 */
export function createSessionReader(db: Db, config: Config) {
  const verify = createSessionVerifier(config);
  return async function readSession(ctx: Context): Promise<SessionUser | null> {
    const auth = ctx.get('authorization');
    const bearer = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
    const token = bearer ?? ctx.cookies.get(SESSION_COOKIE);
    if (!token) return null;
    const userId = await verify(token);
    const row = await db('users as u')
      .join('team_members as m', function () {
        this.on('m.user_id', '=', 'u.id').andOn('m.team_id', '=', 'u.team_id');
      })
      .join('teams as t', 't.id', 'm.team_id')
      .where('u.id', userId)
      .first('u.id', 'u.email', 't.id as team_id', 't.name as team_name')
      .catch(() => undefined);
    if (!row) throw unauthorized('User not found');
    return { userId: row.id, email: row.email, teamId: row.teamId, teamName: row.teamName, via: bearer ? 'bearer' : 'cookie', token };
  };
}

/** Stateless CSRF token for the consent form: an HMAC of the session cookie, so it cannot be guessed cross-site. */
export function csrfToken(config: Config, sessionToken: string): string {
  return createHmac('sha256', `csrf:${config.ENCRYPTION_KEY}`).update(sessionToken).digest('base64url');
}

export const csrfValid = (config: Config, sessionToken: string, given: unknown) =>
  typeof given === 'string' && given.length > 0 && safeEqual(csrfToken(config, sessionToken), given);
