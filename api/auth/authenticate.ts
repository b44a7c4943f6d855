import type { Db } from '../../shared/db/knex';
import { TeamMember, User } from '../../shared/db/models';
import type { Principal } from '../../shared/domain/auth/principal';
import { ACCESS_TOKEN_PREFIX, API_KEY_PATTERN, sha256Hex } from '../../shared/domain/crypto/tokens';
import { forbidden, unauthorized } from '../../shared/errors';
import type { Config } from '../../shared/config';
import { createSessionVerifier } from './session-token';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const LAST_USED_EVERY_MS = 60_000;

export type Authenticator = (authorization: string | undefined) => Promise<Principal>;

/**
 * Bearer token → Principal. Keys and tokens are looked up by hash on every request (no cache), so
 * a deleted key or revoked token fails on the very next request in every API process.
 */
export function createAuthenticator(db: Db, config: Config): Authenticator {
  const verifySession = createSessionVerifier(config);
  const lastUsedWritten = new Map<string, number>();

  // lastUsedAt is bookkeeping, not auth: written at most once a minute per key, off the request path.
  const touch = (table: 'api_keys' | 'oauth_tokens', id: string) => {
    const now = Date.now();
    if (now - (lastUsedWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    lastUsedWritten.set(id, now);
    if (lastUsedWritten.size > 10_000) lastUsedWritten.clear();
    db(table).where({ id }).update({ lastUsedAt: new Date() }).catch(() => lastUsedWritten.delete(id));
  };

  return async (authorization) => {
    if (authorization === undefined || authorization === '') throw unauthorized('Authorization header required');
    const [scheme, ...rest] = authorization.trim().split(/\s+/);
    if (scheme.toLowerCase() !== 'bearer') throw unauthorized('Invalid authorization scheme');
    const token = rest.join(' ');
    if (!token) throw unauthorized('Token required');

    if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
      // One round trip: the token, its application and the user's membership of the token's team.
      const row = await db('oauth_tokens as t')
        .join('oauth_applications as a', 'a.id', 't.applicationId')
        .leftJoin('team_members as m', (j) => j.on('m.userId', 't.userId').andOn('m.teamId', 't.teamId'))
        .where('t.accessTokenHash', sha256Hex(token))
        .first('t.id', 't.userId', 't.teamId', 't.scopes', 't.applicationId', 't.expiresAt', 't.revokedAt', 'a.active as appActive', 'm.userId as memberId');
      if (!row || row.revokedAt || new Date(row.expiresAt).getTime() <= Date.now() || !row.appActive) {
        throw unauthorized('Invalid or expired access token');
      }
      if (!row.memberId) throw unauthorized('User not found');
      touch('oauth_tokens', row.id);
      return { kind: 'oauth', userId: row.userId, teamId: row.teamId, scopes: row.scopes, oauthApplicationId: row.applicationId, oauthTokenId: row.id };
    }

    if (token.startsWith('svc_')) {
      if (!API_KEY_PATTERN.test(token)) throw unauthorized('Invalid token format');
      // One round trip: the key and its owner's membership of the key's team.
      const key = await db('api_keys as k')
        .leftJoin('team_members as m', (j) => j.on('m.userId', 'k.userId').andOn('m.teamId', 'k.teamId'))
        .where('k.keyHash', sha256Hex(token))
        .first('k.id', 'k.userId', 'k.teamId', 'k.scopes', 'm.userId as memberId');
      if (!key) throw unauthorized('Invalid API key');
      // A credential outlives nothing: a user removed from the team (or deleted) loses access at once.
      if (!key.memberId) throw unauthorized('User not found');
      touch('api_keys', key.id);
      return { kind: 'api_key', userId: key.userId, teamId: key.teamId, scopes: key.scopes, apiKeyId: key.id };
    }

    if (!JWT_SHAPE.test(token)) throw unauthorized('Invalid token format');
    const userId = await verifySession(token);
    const user = await User.query(db).findById(userId).catch(() => undefined);
    if (!user) throw unauthorized('User not found');
    const teamId = user.teamId ?? (await TeamMember.query(db).findOne({ userId }).orderBy('createdAt'))?.teamId;
    if (!teamId) throw forbidden('User does not belong to any team');
    return { kind: 'session', userId, teamId, scopes: ['apis.all'] };
  };
}
