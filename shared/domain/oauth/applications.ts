import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { notFound } from '../../errors';
import { assertNoEscalation } from '../api-keys/service';
import type { Principal } from '../auth/principal';
import { newOpaqueSecret, sha256Hex } from '../crypto/tokens';
import type { createOAuthApplicationInput, OAuthApplicationDto, updateOAuthApplicationInput } from './schema';

const toDto = (r: any): OAuthApplicationDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  logoUrl: r.logoUrl,
  website: r.website,
  client_id: r.clientId,
  redirectUris: r.redirectUris,
  scopes: r.scopes,
  isPublic: r.isPublic,
  active: r.active,
  createdAt: new Date(r.createdAt).toISOString(),
});

const newClientSecret = () => `svc_secret_${newOpaqueSecret()}`;

export async function listApplications(db: Db, teamId: string) {
  return (await db('oauth_applications').where({ teamId }).orderBy('created_at', 'desc')).map(toDto);
}

export async function getApplication(db: Db, teamId: string, id: string) {
  const row = await db('oauth_applications').where({ teamId, id }).first();
  if (!row) throw notFound(`OAuth application ${id} not found`);
  return toDto(row);
}

/** Registers an application; a confidential one gets a secret, shown here once and stored hashed. */
export async function createApplication(db: Db, principal: Principal, input: z.infer<typeof createOAuthApplicationInput>) {
  assertNoEscalation(principal, input.scopes);
  const secret = input.isPublic ? null : newClientSecret();
  const [row] = await db('oauth_applications')
    .insert({
      teamId: principal.teamId,
      createdBy: principal.userId,
      name: input.name,
      description: input.description ?? null,
      logoUrl: input.logoUrl ?? null,
      website: input.website ?? null,
      clientId: `svc_client_${randomBytes(16).toString('hex')}`,
      clientSecretHash: secret ? sha256Hex(secret) : null,
      redirectUris: input.redirectUris,
      scopes: input.scopes,
      isPublic: input.isPublic,
    })
    .returning('*');
  return { ...toDto(row), client_secret: secret };
}

export async function updateApplication(db: Db, principal: Principal, input: z.infer<typeof updateOAuthApplicationInput>) {
  if (input.scopes) assertNoEscalation(principal, input.scopes);
  const { id, ...fields } = input;
  const [row] = await db('oauth_applications').where({ teamId: principal.teamId, id }).update({ ...fields, updatedAt: new Date() }).returning('*');
  if (!row) throw notFound(`OAuth application ${id} not found`);
  return toDto(row);
}

/** Deleting an application deletes its codes, grants and tokens (cascade): they stop working at once. */
export async function deleteApplication(db: Db, teamId: string, id: string) {
  const n = await db('oauth_applications').where({ teamId, id }).delete();
  if (!n) throw notFound(`OAuth application ${id} not found`);
}

/** A new secret; the old one stops working immediately. */
export async function regenerateSecret(db: Db, teamId: string, id: string) {
  const app = await db('oauth_applications').where({ teamId, id }).first();
  if (!app) throw notFound(`OAuth application ${id} not found`);
  if (app.isPublic) return { ...toDto(app), client_secret: null };
  const secret = newClientSecret();
  const [row] = await db('oauth_applications').where({ id }).update({ clientSecretHash: sha256Hex(secret), updatedAt: new Date() }).returning('*');
  return { ...toDto(row), client_secret: secret };
}

/** Applications this user has granted access to in this team, with what and when. */
export async function authorizedApplications(db: Db, principal: Principal) {
  const rows = await db('oauth_consents as g')
    .join('oauth_applications as a', 'a.id', 'g.application_id')
    .where({ 'g.user_id': principal.userId, 'g.team_id': principal.teamId })
    .select('a.id', 'a.name', 'a.logo_url', 'a.website', 'g.scopes', 'g.created_at as granted_at', 'g.updated_at');
  return rows.map((r: any) => ({ id: r.id, name: r.name, logoUrl: r.logoUrl, website: r.website, scopes: r.scopes, grantedAt: new Date(r.grantedAt).toISOString() }));
}

/** Withdraws this user's grant: its tokens are revoked and the next authorization asks again. */
export async function revokeAccess(db: Db, principal: Principal, applicationId: string) {
  await db.transaction(async (trx) => {
    const where = { applicationId, userId: principal.userId, teamId: principal.teamId };
    const n = await trx('oauth_consents').where(where).delete();
    if (!n) throw notFound('This application has no access to revoke');
    await trx('oauth_tokens').where(where).whereNull('revokedAt').update({ revokedAt: new Date() });
  });
  return { applicationId, revoked: true };
}
