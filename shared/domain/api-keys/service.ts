import type { Db } from '../../db/knex';
import { forbidden, notFound } from '../../errors';
import type { Principal } from '../auth/principal';
import { scopesBeyond } from '../auth/scopes';
import { newApiKey, sha256Hex } from '../crypto/tokens';
import type { ApiKeyDto } from './schema';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function toDto(r: any): ApiKeyDto {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    keyHint: r.keyHint,
    lastUsedAt: iso(r.lastUsedAt),
    createdAt: iso(r.createdAt)!,
    user: r.userId ? { id: r.userId, email: r.userEmail, fullName: r.userFullName } : null,
  };
}

const selectKeys = (db: Db, teamId: string) =>
  db('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .where('k.team_id', teamId)
    .select('k.*', 'u.email as user_email', 'u.full_name as user_full_name');

/** Nobody hands out more than they hold: a key or token can only grant scopes its creator has. */
export function assertNoEscalation(principal: Principal, requested: string[]) {
  const beyond = scopesBeyond(principal.scopes, requested);
  if (beyond.length) throw forbidden(`You cannot grant scopes you do not have: ${beyond.join(', ')}. Your scopes: ${principal.scopes.join(', ')}`);
}

export async function listApiKeys(db: Db, teamId: string): Promise<ApiKeyDto[]> {
  return (await selectKeys(db, teamId).orderBy('k.created_at', 'desc')).map(toDto);
}

/** Creates a key: the secret is returned here once and only its SHA-256 is stored. */
export async function createApiKey(db: Db, principal: Principal, input: { name: string; scopes: string[] }): Promise<{ key: string; data: ApiKeyDto }> {
  assertNoEscalation(principal, input.scopes);
  const key = newApiKey();
  const [row] = await db('api_keys')
    .insert({ teamId: principal.teamId, userId: principal.userId, name: input.name, scopes: input.scopes, keyHash: sha256Hex(key), keyHint: key.slice(-4) })
    .returning('id');
  const [created] = await selectKeys(db, principal.teamId).where('k.id', row.id);
  return { key, data: toDto(created) };
}

/** Only the name and the scopes of an existing key change; the secret stays as it is. */
export async function updateApiKey(db: Db, principal: Principal, input: { id: string; name: string; scopes: string[] }): Promise<ApiKeyDto> {
  assertNoEscalation(principal, input.scopes);
  const n = await db('api_keys').where({ teamId: principal.teamId, id: input.id }).update({ name: input.name, scopes: input.scopes, updatedAt: new Date() });
  if (!n) throw notFound(`API key ${input.id} not found`);
  const [row] = await selectKeys(db, principal.teamId).where('k.id', input.id);
  return toDto(row);
}

/** Deleted at once: keys are looked up on every request, so the next request with it fails. */
export async function deleteApiKey(db: Db, teamId: string, id: string): Promise<void> {
  const n = await db('api_keys').where({ teamId, id }).delete();
  if (!n) throw notFound(`API key ${id} not found`);
}
