import { createHash } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify, type KeyLike } from 'jose';
import { safeEqual } from '../../../shared/domain/crypto/tokens';
import type { BankAClient } from '../../../shared/providers/bank-a';

/**
 * bank-a (Plaid) webhooks carry an ES256 JWT in `bank-a-Verification`: `iat` at most 5 minutes old and
 * `request_body_sha256` = SHA-256 hex of the raw body. Keys come from the provider by `kid`, cached;
 * an unknown `kid` fetches it; an expired key is refused.
 */
export function createBankAVerifier(client: Pick<BankAClient, 'getVerificationKey'>) {
  const cache = new Map<string, { key: KeyLike | Uint8Array; expired: boolean }>();

  async function keyFor(kid: string) {
    let entry = cache.get(kid);
    if (!entry) {
      const { key } = await client.getVerificationKey(kid);
      entry = {
        key: await importJWK({ kty: key.kty as string, crv: key.crv as string, x: key.x as string, y: key.y as string }, 'ES256'),
        expired: key.expired_at !== null,
      };
      cache.set(kid, entry);
    }
    return entry;
  }

  return async function verify(token: string | undefined, raw: string): Promise<boolean> {
    if (!token) return false;
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'ES256' || typeof header.kid !== 'string') return false;
    const entry = await keyFor(header.kid);
    if (entry.expired) return false;
    const { payload } = await jwtVerify(token, entry.key, { algorithms: ['ES256'], maxTokenAge: '5 min' });
    const claimed = payload.request_body_sha256;
    return typeof claimed === 'string' && safeEqual(claimed, createHash('sha256').update(raw).digest('hex'));
  };
}
