import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import { isScope, scopesBeyond } from '../auth/scopes';
import { newAccessToken, newOpaqueSecret, newRefreshToken, safeEqual, sha256Hex } from '../crypto/tokens';
import { OAuthError } from './errors';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 86_400;
export const CODE_TTL_S = 600;

export interface AuthorizeParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export interface TrustedRequest {
  app: any;
  redirectUri: string;
}

export interface ValidAuthorization extends TrustedRequest {
  state: string;
  scopes: string[];
  codeChallenge: string | null;
}

/**
 * Step 1: is the client known and the redirect URI one it registered, exactly? Until both hold,
 * errors go back to the browser as 400 and never to the (untrusted) redirect URI.
 */
export async function trustRedirect(db: Db, p: AuthorizeParams): Promise<TrustedRequest> {
  if (!p.client_id) throw new OAuthError('invalid_request', 'client_id is required');
  const app = await db('oauth_applications').where({ clientId: p.client_id }).first();
  if (!app || !app.active) throw new OAuthError('invalid_client', 'Unknown or inactive client_id', 400);
  if (!p.redirect_uri) throw new OAuthError('invalid_request', 'redirect_uri is required');
  if (!app.redirectUris.includes(p.redirect_uri)) throw new OAuthError('invalid_request', 'redirect_uri is not registered for this application');
  return { app, redirectUri: p.redirect_uri };
}

/** Step 2: the rest of the request; these errors are redirected to the client with its state. */
export function validateAuthorization(trusted: TrustedRequest, p: AuthorizeParams): ValidAuthorization {
  const { app } = trusted;
  if (p.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be "code"');
  if (!p.state) throw new OAuthError('invalid_request', 'state is required');
  if (!p.scope?.trim()) throw new OAuthError('invalid_request', 'scope is required');
  const scopes = [...new Set(p.scope.trim().split(/\s+/))];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new OAuthError('invalid_scope', `Unknown scopes: ${unknown.join(' ')}`);
  const beyond = scopesBeyond(app.scopes, scopes);
  if (beyond.length) throw new OAuthError('invalid_scope', `The application may not ask for: ${beyond.join(' ')}`);
  if (p.code_challenge_method && p.code_challenge_method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  if (p.code_challenge && !/^[A-Za-z0-9_-]{43,128}$/.test(p.code_challenge)) throw new OAuthError('invalid_request', 'code_challenge must be BASE64URL(SHA256(code_verifier))');
  if (p.code_challenge && !p.code_challenge_method) throw new OAuthError('invalid_request', 'code_challenge_method=S256 is required with code_challenge');
  if (app.isPublic && !p.code_challenge) throw new OAuthError('invalid_request', 'PKCE (code_challenge with S256) is required for public clients');
  return { ...trusted, state: p.state, scopes, codeChallenge: p.code_challenge ?? null };
}

export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** True when the user already granted at least these scopes to this application in this team. */
export async function hasConsent(db: Db, appId: string, userId: string, teamId: string, scopes: string[]): Promise<boolean> {
  const grant = await db('oauth_consents').where({ applicationId: appId, userId, teamId }).first();
  return Boolean(grant) && scopesBeyond(grant.scopes, scopes).length === 0;
}

/** Records the consent (widening an earlier one) and issues a single-use code bound to everything. */
export async function issueCode(db: Db, v: ValidAuthorization, userId: string, teamId: string): Promise<string> {
  const code = `svc_code_${newOpaqueSecret()}`;
  await db.transaction(async (trx) => {
    const grant = await trx('oauth_consents').where({ applicationId: v.app.id, userId, teamId }).forUpdate().first();
    if (grant) {
      const merged = [...new Set([...grant.scopes, ...v.scopes])];
      await trx('oauth_consents').where({ id: grant.id }).update({ scopes: merged, updatedAt: new Date() });
    } else {
      await trx('oauth_consents').insert({ applicationId: v.app.id, userId, teamId, scopes: v.scopes });
    }
    await trx('oauth_authorization_codes').insert({
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

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** Authenticates the client: confidential clients by secret (constant time), public ones by id alone. */
export async function authenticateClient(db: Db, c: ClientCredentials) {
  if (!c.clientId) throw new OAuthError('invalid_client', 'Client authentication failed: client_id missing');
  const app = await db('oauth_applications').where({ clientId: c.clientId }).first();
  if (!app || !app.active) throw new OAuthError('invalid_client', 'Client authentication failed');
  if (app.isPublic) {
    if (c.clientSecret) throw new OAuthError('invalid_client', 'Public clients have no secret');
    return app;
  }
  if (!c.clientSecret || !safeEqual(sha256Hex(c.clientSecret), app.clientSecretHash)) throw new OAuthError('invalid_client', 'Client authentication failed');
  return app;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function issueTokens(db: Db, row: { teamId: string; applicationId: string; userId: string; scopes: string[]; familyId: string; authorizationCodeId: string | null }): Promise<TokenResponse> {
  const access = newAccessToken();
  const refresh = newRefreshToken();
  const now = Date.now();
  await db('oauth_tokens').insert({
    ...row,
    accessTokenHash: sha256Hex(access),
    refreshTokenHash: sha256Hex(refresh),
    expiresAt: new Date(now + ACCESS_TOKEN_TTL_S * 1000),
    refreshExpiresAt: new Date(now + REFRESH_TOKEN_TTL_S * 1000),
  });
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: row.scopes.join(' ') };
}

async function assertStillMember(db: Db, userId: string, teamId: string) {
  if (!(await db('team_members').where({ userId, teamId }).first('id'))) throw new OAuthError('invalid_grant', 'The user no longer belongs to the team');
}

/** authorization_code grant: the code is spent atomically; a second use revokes what the first one issued. */
export async function exchangeCode(db: Db, app: any, p: { code?: string; redirect_uri?: string; code_verifier?: string }): Promise<TokenResponse> {
  if (!p.code) throw new OAuthError('invalid_request', 'code is required');
  if (!p.redirect_uri) throw new OAuthError('invalid_request', 'redirect_uri is required');
  const hash = sha256Hex(p.code);
  const spent = await db('oauth_authorization_codes').where({ codeHash: hash }).whereNull('usedAt').update({ usedAt: new Date() }).returning('*');
  const code = spent[0];
  if (!code) {
    const reused = await db('oauth_authorization_codes').where({ codeHash: hash }).first();
    if (reused) {
      await db('oauth_tokens').where({ authorizationCodeId: reused.id }).whereNull('revokedAt').update({ revokedAt: new Date() });
      throw new OAuthError('invalid_grant', 'Authorization code already used; the tokens issued from it are revoked');
    }
    throw new OAuthError('invalid_grant', 'Invalid authorization code');
  }
  if (code.applicationId !== app.id) throw new OAuthError('invalid_grant', 'The code was issued to another client');
  if (new Date(code.expiresAt).getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'Authorization code expired');
  if (code.redirectUri !== p.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (code.codeChallenge) {
    if (!p.code_verifier) throw new OAuthError('invalid_grant', 'code_verifier is required');
    const computed = createHash('sha256').update(p.code_verifier).digest('base64url');
    if (!safeEqual(computed, code.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  } else if (p.code_verifier) {
    throw new OAuthError('invalid_grant', 'code_verifier sent but no code_challenge was');
  }
  await assertStillMember(db, code.userId, code.teamId);
  return issueTokens(db, { teamId: code.teamId, applicationId: app.id, userId: code.userId, scopes: code.scopes, familyId: randomUUID(), authorizationCodeId: code.id });
}

/** refresh_token grant with rotation: an already-rotated refresh token is a theft signal and ends the family. */
export async function refreshTokens(db: Db, app: any, p: { refresh_token?: string; scope?: string }): Promise<TokenResponse> {
  if (!p.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
  const row = await db('oauth_tokens').where({ refreshTokenHash: sha256Hex(p.refresh_token) }).first();
  if (!row || row.applicationId !== app.id) throw new OAuthError('invalid_grant', 'Invalid refresh token');
  const endFamily = async () => {
    // Outside any transaction on purpose: the revocation must stick although the request fails.
    await db('oauth_tokens').where({ familyId: row.familyId }).whereNull('revokedAt').update({ revokedAt: new Date() });
    return new OAuthError('invalid_grant', 'Refresh token already used; every token of this grant is revoked');
  };
  if (row.rotatedAt) throw await endFamily();
  if (row.revokedAt) throw new OAuthError('invalid_grant', 'Refresh token revoked');
  if (!row.refreshExpiresAt || new Date(row.refreshExpiresAt).getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'Refresh token expired');
  let scopes: string[] = row.scopes;
  if (p.scope) {
    const asked = [...new Set(p.scope.trim().split(/\s+/))];
    if (scopesBeyond(row.scopes, asked).length) throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scopes');
    scopes = asked;
  }
  await assertStillMember(db, row.userId, row.teamId);
  const issued = await db.transaction(async (trx) => {
    // Spend it atomically; the old access token ends with it, so a grant has one live access token.
    const spent = await trx('oauth_tokens').where({ id: row.id }).whereNull('rotatedAt').whereNull('revokedAt').update({ rotatedAt: new Date(), expiresAt: new Date() });
    if (!spent) return null; // a concurrent request used it first
    return issueTokens(trx, { teamId: row.teamId, applicationId: app.id, userId: row.userId, scopes, familyId: row.familyId, authorizationCodeId: row.authorizationCodeId });
  });
  if (!issued) throw await endFamily();
  return issued;
}

/** RFC 7009: revokes an access token (that token) or a refresh token (its whole grant). Unknown tokens are fine. */
export async function revokeToken(db: Db, app: any, token: string, hint?: string) {
  const hash = sha256Hex(token);
  const byRefresh = () => db('oauth_tokens').where({ refreshTokenHash: hash, applicationId: app.id }).first();
  const byAccess = () => db('oauth_tokens').where({ accessTokenHash: hash, applicationId: app.id }).first();
  const first = hint === 'access_token' ? byAccess : byRefresh;
  const second = hint === 'access_token' ? byRefresh : byAccess;
  const found = (await first()) ?? (await second());
  if (!found) return;
  const now = new Date();
  if (found.refreshTokenHash === hash) {
    await db('oauth_tokens').where({ familyId: found.familyId }).whereNull('revokedAt').update({ revokedAt: now });
  } else {
    await db('oauth_tokens').where({ id: found.id }).whereNull('revokedAt').update({ revokedAt: now });
  }
}
