import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { OAuthApplication, OAuthAuthorizationCode, OAuthConsent, OAuthToken, TeamMember } from '../../db/models';
import { isScope, scopesBeyond } from '../auth/scopes';
import { newAccessToken, newOpaqueSecret, newRefreshToken, safeEqual, sha256Hex } from '../crypto/tokens';
import { OAuthError } from './errors';
import { registrationExpired } from './registration';
import type { AuthorizeClientParams, AuthorizeQuery, AuthorizeRequestParams, TokenGrant, TokenResponse } from './schema';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 86_400;
export const CODE_TTL_S = 600;

export interface TrustedRequest {
  app: OAuthApplication;
  redirectUri: string;
}

export interface ValidAuthorization extends TrustedRequest {
  /** The request's parameters, as they were given (the consent page posts them back). */
  params: AuthorizeQuery;
  state: string;
  scopes: string[];
  codeChallenge: string | null;
}

/** A space-separated scope parameter as a list, each scope once. */
const scopeList = (scope: string) => [...new Set(scope.trim().split(/\s+/))];

/**
 * Step 1: is the client known and the redirect URI one it registered, exactly? Until both hold,
 * errors go back to the browser as 400 and never to the (untrusted) redirect URI.
 */
export async function trustRedirect(db: Db, p: AuthorizeClientParams): Promise<TrustedRequest> {
  const app = await OAuthApplication.query(db).findOne({ clientId: p.client_id });
  if (!app?.active || registrationExpired(app)) throw new OAuthError('invalid_client', 'Unknown or inactive client_id', 400);
  if (!app.redirectUris.includes(p.redirect_uri))
    throw new OAuthError('invalid_request', 'redirect_uri is not registered for this application');
  return { app, redirectUri: p.redirect_uri };
}

/**
 * Step 2: what the schema cannot know (scopes against the application, PKCE rules); these errors
 * are redirected to the client with its state.
 */
export function validateAuthorization(trusted: TrustedRequest, p: AuthorizeRequestParams): ValidAuthorization {
  const { app } = trusted;
  const scopes = scopeList(p.scope);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new OAuthError('invalid_scope', `Unknown scopes: ${unknown.join(' ')}`);
  const beyond = scopesBeyond(app.scopes, scopes);
  if (beyond.length) throw new OAuthError('invalid_scope', `The application may not ask for: ${beyond.join(' ')}`);
  if (p.code_challenge && !p.code_challenge_method)
    throw new OAuthError('invalid_request', 'code_challenge_method=S256 is required with code_challenge');
  // A self-registered client is whoever asked: even with a secret, only PKCE binds its code to its own request.
  if ((app.isPublic || app.selfRegistered) && !p.code_challenge)
    throw new OAuthError('invalid_request', 'PKCE (code_challenge with S256) is required for public and self-registered clients');
  return {
    ...trusted,
    params: { client_id: app.clientId, redirect_uri: trusted.redirectUri, ...p },
    state: p.state,
    scopes,
    codeChallenge: p.code_challenge ?? null,
  };
}

export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** True when the user already granted at least these scopes to this application in this team. */
export async function hasConsent(db: Db, appId: string, userId: string, teamId: string, scopes: string[]): Promise<boolean> {
  const grant = await OAuthConsent.query(db).findOne({ applicationId: appId, userId, teamId });
  return grant !== undefined && scopesBeyond(grant.scopes, scopes).length === 0;
}

/** Records the consent (widening an earlier one) and issues a single-use code bound to everything. */
export async function issueCode(db: Db, v: ValidAuthorization, userId: string, teamId: string): Promise<string> {
  const code = `svc_code_${newOpaqueSecret()}`;
  await db.transaction(async (trx) => {
    // The first consent keeps a self-registered client; clearing its expiry locks the row, so the
    // registration sweep cannot delete it under this consent, and one it already deleted refuses it.
    if (v.app.registrationExpiresAt !== null) {
      const kept = await OAuthApplication.query(trx)
        .patch({ registrationExpiresAt: null })
        .where({ id: v.app.id })
        .where('registrationExpiresAt', '>', new Date());
      // Not kept: expired, or another consent cleared the expiry first (then the client stays).
      if (!kept && !(await OAuthApplication.query(trx).findById(v.app.id).whereNull('registrationExpiresAt')))
        throw new OAuthError('invalid_client', 'Unknown or inactive client_id', 400);
    }
    const grant = await OAuthConsent.query(trx).findOne({ applicationId: v.app.id, userId, teamId }).forUpdate();
    if (grant) {
      const merged = [...new Set([...grant.scopes, ...v.scopes])];
      await OAuthConsent.query(trx).patch({ scopes: merged, updatedAt: new Date() }).where({ teamId, id: grant.id });
    } else {
      await OAuthConsent.query(trx).insert({ applicationId: v.app.id, userId, teamId, scopes: v.scopes });
    }
    await OAuthAuthorizationCode.query(trx).insert({
      teamId,
      applicationId: v.app.id,
      userId,
      codeHash: sha256Hex(code),
      redirectUri: v.redirectUri,
      scopes: v.scopes,
      codeChallenge: v.codeChallenge,
      codeChallengeMethod: v.codeChallenge ? 'S256' : null,
      expiresAt: new Date(Date.now() + CODE_TTL_S * 1000),
    });
  });
  return code;
}

/** An application as the token and revoke endpoints know it once authenticateClient has let it in. */
export type OAuthClient = OAuthApplication;

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** Authenticates the client: confidential clients by secret (constant time), public ones by id alone. */
export async function authenticateClient(db: Db, c: ClientCredentials): Promise<OAuthClient> {
  if (!c.clientId) throw new OAuthError('invalid_client', 'Client authentication failed: client_id missing');
  const app = await OAuthApplication.query(db).findOne({ clientId: c.clientId });
  if (!app?.active || registrationExpired(app)) throw new OAuthError('invalid_client', 'Client authentication failed');
  if (app.isPublic) {
    if (c.clientSecret) throw new OAuthError('invalid_client', 'Public clients have no secret');
    return app;
  }
  if (!c.clientSecret || !app.clientSecretHash || !safeEqual(sha256Hex(c.clientSecret), app.clientSecretHash))
    throw new OAuthError('invalid_client', 'Client authentication failed');
  return app;
}

/** What a new token pair carries over from its grant: whose it is, and the family it belongs to. */
type Grant = Pick<OAuthToken, 'teamId' | 'userId' | 'familyId' | 'authorizationCodeId'>;

async function issueTokens(db: Knex, app: OAuthApplication, grant: Grant, scopes: string[]): Promise<TokenResponse> {
  const access = newAccessToken();
  const refresh = newRefreshToken();
  const now = Date.now();
  await OAuthToken.query(db).insert({
    teamId: grant.teamId,
    userId: grant.userId,
    familyId: grant.familyId,
    authorizationCodeId: grant.authorizationCodeId,
    applicationId: app.id,
    scopes,
    accessTokenHash: sha256Hex(access),
    refreshTokenHash: sha256Hex(refresh),
    expiresAt: new Date(now + ACCESS_TOKEN_TTL_S * 1000),
    refreshExpiresAt: new Date(now + REFRESH_TOKEN_TTL_S * 1000),
  });
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: scopes.join(' ') };
}

async function assertStillMember(db: Db, userId: string, teamId: string) {
  if (!(await TeamMember.query(db).findOne({ userId, teamId }).select('id')))
    throw new OAuthError('invalid_grant', 'The user no longer belongs to the team');
}

/** Revokes every live token of a grant (its family): what a reused refresh token or a revoked refresh token ends. */
async function revokeFamily(db: Db, token: Pick<OAuthToken, 'teamId' | 'familyId'>) {
  await OAuthToken.query(db)
    .patch({ revokedAt: new Date() })
    .where({ teamId: token.teamId, familyId: token.familyId })
    .whereNull('revokedAt');
}

type CodeGrant = Extract<TokenGrant, { grant_type: 'authorization_code' }>;
type RefreshGrant = Extract<TokenGrant, { grant_type: 'refresh_token' }>;

/** authorization_code grant: the code is spent atomically; a second use revokes what the first one issued. */
export async function exchangeCode(db: Db, app: OAuthClient, p: CodeGrant): Promise<TokenResponse> {
  const hash = sha256Hex(p.code);
  const code = (
    await OAuthAuthorizationCode.query(db).patch({ usedAt: new Date() }).where({ codeHash: hash }).whereNull('usedAt').returning('*')
  ).at(0);
  if (!code) {
    const reused = await OAuthAuthorizationCode.query(db).findOne({ codeHash: hash });
    if (reused) {
      await OAuthToken.query(db)
        .patch({ revokedAt: new Date() })
        .where({ teamId: reused.teamId, authorizationCodeId: reused.id })
        .whereNull('revokedAt');
      throw new OAuthError('invalid_grant', 'Authorization code already used; the tokens issued from it are revoked');
    }
    throw new OAuthError('invalid_grant', 'Invalid authorization code');
  }
  if (code.applicationId !== app.id) throw new OAuthError('invalid_grant', 'The code was issued to another client');
  if (code.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'Authorization code expired');
  if (code.redirectUri !== p.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (code.codeChallenge) {
    if (!p.code_verifier) throw new OAuthError('invalid_grant', 'code_verifier is required');
    const computed = createHash('sha256').update(p.code_verifier).digest('base64url');
    if (!safeEqual(computed, code.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  } else if (p.code_verifier) {
    throw new OAuthError('invalid_grant', 'code_verifier sent but no code_challenge was');
  }
  await assertStillMember(db, code.userId, code.teamId);
  const grant = { teamId: code.teamId, userId: code.userId, familyId: randomUUID(), authorizationCodeId: code.id };
  return issueTokens(db, app, grant, code.scopes);
}

/** refresh_token grant with rotation: an already-rotated refresh token is a theft signal and ends the family. */
export async function refreshTokens(db: Db, app: OAuthClient, p: RefreshGrant): Promise<TokenResponse> {
  const row = await OAuthToken.query(db).findOne({ refreshTokenHash: sha256Hex(p.refresh_token) });
  if (!row || row.applicationId !== app.id) throw new OAuthError('invalid_grant', 'Invalid refresh token');
  const endFamily = async () => {
    // Outside any transaction on purpose: the revocation must stick although the request fails.
    await revokeFamily(db, row);
    return new OAuthError('invalid_grant', 'Refresh token already used; every token of this grant is revoked');
  };
  if (row.rotatedAt) throw await endFamily();
  if (row.revokedAt) throw new OAuthError('invalid_grant', 'Refresh token revoked');
  if (!row.refreshExpiresAt || row.refreshExpiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'Refresh token expired');
  let scopes = row.scopes;
  if (p.scope) {
    const asked = scopeList(p.scope);
    if (scopesBeyond(row.scopes, asked).length) throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scopes');
    scopes = asked;
  }
  await assertStillMember(db, row.userId, row.teamId);
  const issued = await db.transaction(async (trx) => {
    // Spend it atomically; the old access token ends with it, so a grant has one live access token.
    const spent = await OAuthToken.query(trx)
      .patch({ rotatedAt: new Date(), expiresAt: new Date() })
      .where({ teamId: row.teamId, id: row.id })
      .whereNull('rotatedAt')
      .whereNull('revokedAt');
    if (!spent) return null; // a concurrent request used it first
    return issueTokens(trx, app, row, scopes);
  });
  if (!issued) throw await endFamily();
  return issued;
}

/** RFC 7009: revokes an access token (that token) or a refresh token (its whole grant). Unknown tokens are fine. */
export async function revokeToken(db: Db, app: OAuthClient, token: string, hint?: string): Promise<void> {
  const hash = sha256Hex(token);
  const byRefresh = () => OAuthToken.query(db).findOne({ refreshTokenHash: hash, applicationId: app.id });
  const byAccess = () => OAuthToken.query(db).findOne({ accessTokenHash: hash, applicationId: app.id });
  const first = hint === 'access_token' ? byAccess : byRefresh;
  const second = hint === 'access_token' ? byRefresh : byAccess;
  const found = (await first()) ?? (await second());
  if (!found) return;
  if (found.refreshTokenHash === hash) {
    await revokeFamily(db, found);
  } else {
    await OAuthToken.query(db).patch({ revokedAt: new Date() }).where({ teamId: found.teamId, id: found.id }).whereNull('revokedAt');
  }
}
