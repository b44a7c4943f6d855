import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { OAuthApplication, OAuthConsent, OAuthToken } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { notFound } from '../../errors';
import { assertNoEscalation } from '../api-keys/service';
import type { Principal } from '../auth/principal';
import { newOAuthClientId, newOAuthClientSecret, sha256Hex } from '../crypto/tokens';
import type {
  accessRevokedSchema,
  authorizedApplicationSchema,
  createOAuthApplicationInput,
  OAuthApplicationDto,
  oauthApplicationWithSecretSchema,
  updateOAuthApplicationInput,
} from './schema';

type WithSecret = z.infer<typeof oauthApplicationWithSecretSchema>;

const toDto = (a: OAuthApplication): OAuthApplicationDto => ({
  id: a.id,
  name: a.name,
  description: a.description,
  logoUrl: a.logoUrl,
  website: a.website,
  client_id: a.clientId,
  redirectUris: a.redirectUris,
  scopes: a.scopes,
  isPublic: a.isPublic,
  active: a.active,
  createdAt: toIso(a.createdAt),
});

const notFoundError = (id: string) => notFound(`OAuth application ${id} not found`);

export async function listApplications(db: Db, teamId: string): Promise<OAuthApplicationDto[]> {
  return (await OAuthApplication.query(db).where({ teamId }).orderBy('createdAt', 'desc')).map(toDto);
}

export async function getApplication(db: Db, teamId: string, id: string): Promise<OAuthApplicationDto> {
  const app = await OAuthApplication.query(db).findOne({ teamId, id });
  if (!app) throw notFoundError(id);
  return toDto(app);
}

/** Registers an application; a confidential one gets a secret, shown here once and stored hashed. */
export async function createApplication(
  db: Db,
  principal: Principal,
  input: z.infer<typeof createOAuthApplicationInput>,
): Promise<WithSecret> {
  assertNoEscalation(principal, input.scopes);
  const secret = input.isPublic ? null : newOAuthClientSecret();
  const app = await OAuthApplication.query(db)
    .insert({
      teamId: principal.teamId,
      createdBy: principal.userId,
      name: input.name,
      description: input.description ?? null,
      logoUrl: input.logoUrl ?? null,
      website: input.website ?? null,
      clientId: newOAuthClientId(),
      clientSecretHash: secret ? sha256Hex(secret) : null,
      redirectUris: input.redirectUris,
      scopes: input.scopes,
      isPublic: input.isPublic,
    })
    .returning('*');
  return { ...toDto(app), client_secret: secret };
}

export async function updateApplication(
  db: Db,
  principal: Principal,
  input: z.infer<typeof updateOAuthApplicationInput>,
): Promise<OAuthApplicationDto> {
  if (input.scopes) assertNoEscalation(principal, input.scopes);
  const { id, ...fields } = input;
  const app = await db.transaction(async (trx) => {
    const updated = (
      await OAuthApplication.query(trx)
        .patch({ ...fields, updatedAt: new Date() })
        .where({ teamId: principal.teamId, id })
        .returning('*')
    ).at(0);
    // Deactivation is final for what was issued: reactivating must not bring old tokens back.
    if (updated && input.active === false) await revokeEveryToken(trx, updated);
    return updated;
  });
  if (!app) throw notFoundError(id);
  return toDto(app);
}

/** Revokes every token the application holds, in every team that granted it. */
async function revokeEveryToken(db: Db, app: Pick<OAuthApplication, 'id'>): Promise<void> {
  await OAuthToken.query(db).patch({ revokedAt: new Date() }).where({ applicationId: app.id }).whereNull('revokedAt');
}

/** Deleting an application deletes its codes, grants and tokens (cascade): they stop working at once. */
export async function deleteApplication(db: Db, teamId: string, id: string): Promise<void> {
  const n = await OAuthApplication.query(db).delete().where({ teamId, id });
  if (!n) throw notFoundError(id);
}

/** A new secret; the old one stops working immediately. */
export async function regenerateSecret(db: Db, teamId: string, id: string): Promise<WithSecret> {
  const app = await OAuthApplication.query(db).findOne({ teamId, id });
  if (!app) throw notFoundError(id);
  if (app.isPublic) return { ...toDto(app), client_secret: null };
  const secret = newOAuthClientSecret();
  const updated = await db.transaction(async (trx) => {
    const row = (
      await OAuthApplication.query(trx)
        .patch({ clientSecretHash: sha256Hex(secret), updatedAt: new Date() })
        .where({ teamId, id })
        .returning('*')
    ).at(0);
    // A new secret is the answer to a leaked one: what was obtained with the old one ends too.
    if (row) await revokeEveryToken(trx, row);
    return row;
  });
  if (!updated) throw notFoundError(id); // deleted meanwhile
  return { ...toDto(updated), client_secret: secret };
}

/**
 * Applications this user has granted access to in this team, with what and when: the team's own,
 * another team's, and clients that registered themselves (the team wall shows an application to a
 * team through a consent given in it, migration 0085).
 */
export async function authorizedApplications(db: Db, principal: Principal): Promise<z.infer<typeof authorizedApplicationSchema>[]> {
  const grants = await OAuthConsent.query(db).where({ userId: principal.userId, teamId: principal.teamId }).withGraphFetched('application');
  return grants.flatMap(({ application: app, scopes, createdAt }) =>
    app
      ? [
          {
            id: app.id,
            name: app.name,
            logoUrl: app.logoUrl,
            website: app.website,
            selfRegistered: app.selfRegistered,
            scopes,
            grantedAt: toIso(createdAt),
          },
        ]
      : [],
  );
}

/** Withdraws this user's grant: its tokens are revoked and the next authorization asks again. */
export async function revokeAccess(db: Db, principal: Principal, applicationId: string): Promise<z.infer<typeof accessRevokedSchema>> {
  await db.transaction(async (trx) => {
    const where = { applicationId, userId: principal.userId, teamId: principal.teamId };
    const n = await OAuthConsent.query(trx).delete().where(where);
    if (!n) throw notFound('This application has no access to revoke');
    await OAuthToken.query(trx).patch({ revokedAt: new Date() }).where(where).whereNull('revokedAt');
  });
  return { applicationId, revoked: true };
}
