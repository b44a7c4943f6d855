import type { Db } from '../../shared/db/knex';
import { newApiKey, sha256Hex } from '../../shared/domain/crypto/tokens';

/** A fresh API key for a bench's team, stored as the product stores keys (by hash); `name` is what the bench deletes it by. */
export async function issueBenchKey(db: Db, owner: { teamId: string; userId: string; name: string; scopes: string[] }): Promise<string> {
  const key = newApiKey();
  await db('api_keys').insert({
    teamId: owner.teamId,
    userId: owner.userId,
    name: owner.name,
    keyHash: sha256Hex(key),
    keyHint: key.slice(-4),
    scopes: owner.scopes,
  });
  return key;
}
