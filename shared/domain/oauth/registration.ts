import type { Db } from '../../db/knex';
import { OAuthApplication } from '../../db/models';
import { newOAuthClientId, newOAuthClientSecret, sha256Hex } from '../crypto/tokens';
import {
  DEFAULT_REGISTRATION_SCOPES,
  REGISTERED_GRANT_TYPES,
  type ClientRegistrationRequest,
  type ClientRegistrationResponse,
} from './registration-schema';

/**
 * Registers a client that asked for itself (RFC 7591). It belongs to no team and nobody lists it
 * until a user consents to it; if nobody has within `ttlMs`, the registration sweep deletes it.
 */
export async function registerClient(db: Db, req: ClientRegistrationRequest, opts: { ttlMs: number }): Promise<ClientRegistrationResponse> {
  const isPublic = req.token_endpoint_auth_method === 'none';
  const secret = isPublic ? null : newOAuthClientSecret();
  const name = req.client_name ?? new URL(req.redirect_uris[0]).host;
  const scopes = req.scope ?? [...DEFAULT_REGISTRATION_SCOPES];
  const app = await OAuthApplication.query(db)
    .insert({
      teamId: null,
      createdBy: null,
      name,
      description: null,
      logoUrl: req.logo_uri ?? null,
      website: req.client_uri ?? null,
      clientId: newOAuthClientId(),
      clientSecretHash: secret ? sha256Hex(secret) : null,
      redirectUris: req.redirect_uris,
      scopes,
      isPublic,
      selfRegistered: true,
      registrationExpiresAt: new Date(Date.now() + opts.ttlMs),
    })
    .returning('*');
  return {
    client_id: app.clientId,
    client_id_issued_at: Math.floor(app.createdAt.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 as const } : {}),
    client_name: app.name,
    redirect_uris: app.redirectUris,
    token_endpoint_auth_method: req.token_endpoint_auth_method,
    grant_types: [...REGISTERED_GRANT_TYPES],
    response_types: ['code'],
    scope: app.scopes.join(' '),
    ...(app.website ? { client_uri: app.website } : {}),
    ...(app.logoUrl ? { logo_uri: app.logoUrl } : {}),
  };
}

/** A self-registered client nobody consented to within its time is as good as gone, swept or not. */
export const registrationExpired = (app: Pick<OAuthApplication, 'registrationExpiresAt'>, now = new Date()): boolean =>
  app.registrationExpiresAt !== null && app.registrationExpiresAt.getTime() <= now.getTime();

/**
 * Deletes up to `limit` registrations nobody consented to in time; returns how many. Rows another
 * process is deleting, or a consent is clearing the expiry of (issueCode locks the row), are skipped:
 * the consent wins, and the delete re-checks the expiry of a row it waited for.
 */
export async function deleteExpiredRegistrations(db: Db, opts: { limit: number }): Promise<number> {
  const now = new Date();
  const expired = OAuthApplication.query(db)
    .select('id')
    .where('registrationExpiresAt', '<=', now)
    .orderBy('registrationExpiresAt')
    .limit(opts.limit)
    .forUpdate()
    .skipLocked();
  return OAuthApplication.query(db).delete().whereIn('id', expired).where('registrationExpiresAt', '<=', now);
}
