import type { Db } from '../../db/knex';
import { ApiKey } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { forbidden, notFound } from '../../errors';
import type { Principal } from '../auth/principal';
import { scopesBeyond } from '../auth/scopes';
import { newApiKey, sha256Hex } from '../crypto/tokens';
import { notify } from '../notifications/service';
import type { ApiKeyDto } from './schema';

const toDto = (k: ApiKey): ApiKeyDto => ({
  id: k.id,
  name: k.name,
  scopes: k.scopes,
  keyHint: k.keyHint,
  lastUsedAt: toIsoOrNull(k.lastUsedAt),
  createdAt: toIso(k.createdAt),
  user: k.user ? { id: k.user.id, email: k.user.email, fullName: k.user.fullName } : null,
});

const keysWithCreator = (db: Db, teamId: string) => ApiKey.query(db).where({ teamId }).withGraphFetched('user');

async function getApiKey(db: Db, teamId: string, id: string): Promise<ApiKeyDto> {
  const key = await keysWithCreator(db, teamId).findOne({ id });
  if (!key) throw notFound(`API key ${id} not found`);
  return toDto(key);
}

/** Nobody hands out more than they hold: a key or token can only grant scopes its creator has. */
export function assertNoEscalation(principal: Principal, requested: string[]) {
  const beyond = scopesBeyond(principal.scopes, requested);
  if (beyond.length)
    throw forbidden(`You cannot grant scopes you do not have: ${beyond.join(', ')}. Your scopes: ${principal.scopes.join(', ')}`);
}

export async function listApiKeys(db: Db, teamId: string): Promise<ApiKeyDto[]> {
  return (await keysWithCreator(db, teamId).orderBy('createdAt', 'desc')).map(toDto);
}

/** Creates a key: the secret is returned here once and only its SHA-256 is stored. */
export async function createApiKey(
  db: Db,
  principal: Principal,
  input: { name: string; scopes: string[] },
): Promise<{ key: string; data: ApiKeyDto }> {
  assertNoEscalation(principal, input.scopes);
  const key = newApiKey();
  const created = await db.transaction(async (trx) => {
    const row = await ApiKey.query(trx).insert({
      teamId: principal.teamId,
      userId: principal.userId,
      name: input.name,
      scopes: input.scopes,
      keyHash: sha256Hex(key),
      keyHint: key.slice(-4),
    });
    await notify(trx, {
      teamId: principal.teamId,
      type: 'api_key_created',
      metadata: { apiKeyId: row.id, name: input.name, createdBy: principal.userId, scopes: input.scopes },
    });
    return row;
  });
  return { key, data: await getApiKey(db, principal.teamId, created.id) };
}

/** Only the name and the scopes of an existing key change (those sent); the secret stays as it is. */
export async function updateApiKey(
  db: Db,
  principal: Principal,
  input: { id: string; name?: string; scopes?: string[] },
): Promise<ApiKeyDto> {
  if (input.scopes) assertNoEscalation(principal, input.scopes);
  const n = await ApiKey.query(db)
    .patch({ name: input.name, scopes: input.scopes, updatedAt: new Date() })
    .where({ teamId: principal.teamId, id: input.id });
  if (!n) throw notFound(`API key ${input.id} not found`);
  return getApiKey(db, principal.teamId, input.id);
}

/** Deleted at once: keys are looked up on every request, so the next request with it fails. */
export async function deleteApiKey(db: Db, teamId: string, id: string): Promise<void> {
  const n = await ApiKey.query(db).delete().where({ teamId, id });
  if (!n) throw notFound(`API key ${id} not found`);
}
