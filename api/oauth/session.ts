import { createHmac } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../../shared/config';
import type { Db } from '../../shared/db/knex';
import { safeEqual } from '../../shared/domain/crypto/tokens';
import { findSessionUser, type SessionUserRecord } from '../../shared/domain/users/service';
import { unauthorized } from '../../shared/errors';
import { createSessionVerifier } from '../auth/session-token';

export const SESSION_COOKIE = 'svc_session';

export interface SessionUser extends SessionUserRecord {
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
    const { sub } = await verify(token);
    const user = await findSessionUser(db, sub);
    if (!user) throw unauthorized('User not found');
    return { ...user, via: bearer ? 'bearer' : 'cookie', token };
  };
}

/** Stateless CSRF token for the consent form: an HMAC of the session cookie, so it cannot be guessed cross-site. */
export function csrfToken(config: Config, sessionToken: string): string {
  return createHmac('sha256', `csrf:${config.ENCRYPTION_KEY}`).update(sessionToken).digest('base64url');
}

export const csrfValid = (config: Config, sessionToken: string, given: unknown) =>
  typeof given === 'string' && given.length > 0 && safeEqual(csrfToken(config, sessionToken), given);
