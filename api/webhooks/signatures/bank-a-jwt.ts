import { createHash } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify, type KeyLike } from 'jose';
import { safeEqual } from '../../../shared/domain/crypto/tokens';
import type { BankAClient } from '../../../shared/providers/bank-a';

/** How long a fetched key is trusted before it is asked for again: a key expired without a rotation is refused after this. */
export const BANK_A_KEY_MAX_AGE_MS = 10 * 60_000;

interface CachedKey {
  key: KeyLike | Uint8Array;
  /** The provider gave it an `expired_at`: it never verifies again, so it is not asked for again either. */
  expired: boolean;
  fetchedAt: number;
}

/**
 * bank-a (Plaid) webhooks carry an ES256 JWT in `bank-a-Verification`: `iat` at most 5 minutes old and
 * `request_body_sha256` = SHA-256 hex of the raw body. Keys come from the provider by `kid` and are
 * cached, as the provider asks: a key it has expired (`expired_at` set) is refused; an unknown `kid`
 * means it has rotated, so every cached key still valid is fetched again (the old one is usually
 * expired by now) along with the new one; and no key is trusted longer than `maxAgeMs` without asking.
 */
export function createBankAVerifier(client: Pick<BankAClient, 'getVerificationKey'>, opts: { maxAgeMs?: number; now?: () => number } = {}) {
  const maxAgeMs = opts.maxAgeMs ?? BANK_A_KEY_MAX_AGE_MS;
  const now = opts.now ?? Date.now;
  // Promises, so that requests arriving together with one kid share one fetch.
  const cache = new Map<string, Promise<CachedKey>>();

  function load(kid: string): Promise<CachedKey> {
    const loading = (async () => {
      const { key } = await client.getVerificationKey(kid);
      return {
        key: await importJWK({ kty: key.kty as string, crv: key.crv as string, x: key.x as string, y: key.y as string }, 'ES256'),
        expired: key.expired_at !== null,
        fetchedAt: now(),
      };
    })();
    cache.set(kid, loading);
    // A failed fetch is not remembered: the next request asks again.
    loading.catch(() => {
      if (cache.get(kid) === loading) cache.delete(kid);
    });
    return loading;
  }

  async function refreshValidKeys(): Promise<void> {
    await Promise.allSettled(
      [...cache.entries()].map(async ([kid, entry]) => {
        if (!(await entry).expired) await load(kid);
      }),
    );
  }

  async function keyFor(kid: string): Promise<CachedKey> {
    const cached = cache.get(kid);
    if (cached) {
      const entry = await cached;
      return entry.expired || now() - entry.fetchedAt < maxAgeMs ? entry : load(kid);
    }
    await refreshValidKeys();
    return cache.get(kid) ?? load(kid);
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
