import type { Db } from '../../shared/db/knex';
import { findAccessToken, findApiKey, findSession, touchLastUsed } from '../../shared/domain/auth/credentials';
import { isUuid } from '../../shared/domain/common/uuid';
import type { Caller } from '../../shared/domain/auth/principal';
import { ACCESS_TOKEN_PREFIX, API_KEY_PATTERN, sha256Hex } from '../../shared/domain/crypto/tokens';
import { provisionUser } from '../../shared/domain/users/provision';
import { badRequest, forbidden, unauthorized } from '../../shared/errors';
import type { Config } from '../../shared/config';
import { createSessionVerifier, type SessionClaims } from './session-token';
import type { CredentialCache } from './credential-cache';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const LAST_USED_EVERY_MS = 60_000;

/** What authentication reads from a request: the bearer token, and the team a session asks to act in. */
export interface Credentials {
  authorization: string | undefined;
  /** The `x-team-id` header. */
  teamId?: string;
}

/**
 * `memoryOnly`: answer only from credentials this process already verified (and still holds); any
 * other credential is refused with `NOT_REMEMBERED`, without a database query.
 */
export type Authenticator = (credentials: Credentials, options?: { memoryOnly?: boolean }) => Promise<Caller>;

export const NOT_REMEMBERED = new Error('credential not in this process’s memory');

/** The credentials of a request, from its headers. */
export const credentialsOf = (get: (header: string) => string): Credentials => ({
  authorization: get('authorization') || undefined,
  teamId: get('x-team-id') || undefined,
});

/**
 * Bearer token → Caller. Keys and tokens are found by hash, sessions by user, through the process's
 * credential cache: any change to what they depend on empties every process's cache at commit, so
 * a deleted key, a revoked token or a removed member still fails on the very next request.
 */
export function createAuthenticator(db: Db, config: Config, cache: CredentialCache): Authenticator {
  const verifySession = createSessionVerifier(config);
  const lastUsedWritten = new Map<string, number>();

  // lastUsedAt is bookkeeping, not auth: written at most once a minute per key, off the request path.
  const touch = (credential: Parameters<typeof touchLastUsed>[1]) => {
    const now = Date.now();
    if (now - (lastUsedWritten.get(credential.id) ?? 0) < LAST_USED_EVERY_MS) return;
    lastUsedWritten.set(credential.id, now);
    if (lastUsedWritten.size > 10_000) lastUsedWritten.clear();
    touchLastUsed(db, credential).catch(() => lastUsedWritten.delete(credential.id));
  };

  /** A key or token acts in its own team: naming another one is refused rather than ignored. */
  const boundTo = (teamId: string, requested: string | undefined, what: string) => {
    if (requested !== undefined && requested !== teamId) throw forbidden(`${what} acts only in the team it was created for`);
  };

  // A user the identity provider vouches for (verified email) but we have never seen; only with AUTH_AUTO_PROVISION.
  const provision = async (claims: SessionClaims): Promise<boolean> => {
    if (!config.AUTH_AUTO_PROVISION || !claims.email || !claims.emailVerified || !isUuid(claims.sub)) return false;
    await provisionUser(db, { id: claims.sub, email: claims.email, fullName: claims.name });
    return true;
  };

  return async ({ authorization, teamId: requestedTeamId }, options) => {
    const find = <T extends object>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> =>
      options?.memoryOnly ? cache.peek<T>(key).then((v) => v ?? Promise.reject(NOT_REMEMBERED)) : cache.lookup(key, load);
    if (authorization === undefined || authorization === '') throw unauthorized('Authorization header required');
    const [scheme, ...rest] = authorization.trim().split(/\s+/);
    if (scheme.toLowerCase() !== 'bearer') throw unauthorized('Invalid authorization scheme');
    const token = rest.join(' ');
    if (!token) throw unauthorized('Token required');
    if (requestedTeamId !== undefined && !isUuid(requestedTeamId)) {
      throw badRequest('x-team-id must be a team id (a uuid)', [{ field: 'x-team-id', message: 'not a uuid' }]);
    }

    if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
      // One round trip: the token, its application, its team and the user's membership of that team.
      const hash = sha256Hex(token);
      const row = await find(`token:${hash}`, () => findAccessToken(db, hash));
      if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now() || !row.appActive) {
        throw unauthorized('Invalid or expired access token');
      }
      if (!row.memberId) throw unauthorized('User not found');
      boundTo(row.teamId, requestedTeamId, 'An OAuth access token');
      touch({ kind: 'oauth_token', id: row.id, teamId: row.teamId });
      return {
        kind: 'oauth',
        userId: row.userId,
        teamId: row.teamId,
        scopes: row.scopes,
        oauthApplicationId: row.applicationId,
        oauthTokenId: row.id,
      };
    }

    if (token.startsWith('svc_')) {
      if (!API_KEY_PATTERN.test(token)) throw unauthorized('Invalid token format');
      // One round trip: the key, its team and its owner's membership of that team.
      const hash = sha256Hex(token);
      const key = await find(`key:${hash}`, () => findApiKey(db, hash));
      if (!key) throw unauthorized('Invalid API key');
      // A credential outlives nothing: a user removed from the team (or deleted) loses access at once.
      if (!key.memberId) throw unauthorized('User not found');
      boundTo(key.teamId, requestedTeamId, 'An API key');
      touch({ kind: 'api_key', id: key.id, teamId: key.teamId });
      return { kind: 'api_key', userId: key.userId, teamId: key.teamId, scopes: key.scopes, apiKeyId: key.id };
    }

    if (!JWT_SHAPE.test(token)) throw unauthorized('Invalid token format');
    const claims = await verifySession(token);
    const findIt = () => find(`session:${claims.sub}:${requestedTeamId ?? ''}`, () => findSession(db, claims.sub, requestedTeamId));
    let session = await findIt();
    if (!session && (await provision(claims))) session = await findIt();
    if (!session) throw unauthorized('User not found');
    if (requestedTeamId !== undefined && session.teamId === null) throw forbidden(`You are not a member of team ${requestedTeamId}`);
    return { kind: 'session', userId: session.userId, teamId: session.teamId, scopes: ['apis.all'] };
  };
}
