import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets we must use again (bank access tokens, webhook signing secrets), under a
 * keyring so the key can be rotated: new values are sealed with the current key as
 * `v2:<keyId>:<iv>:<tag>:<ciphertext>` (base64url parts), and values sealed with a retired key
 * still open until the ReEncrypt workflow has sealed them again. `v1:<iv>:<tag>:<ciphertext>`,
 * written before keys had ids, opens with whichever configured key authenticates it.
 */
export interface Keyring {
  /** The key new values are sealed with. */
  readonly current: { id: string; key: Buffer };
  /** Every configured key by id, the current one included. */
  readonly byId: ReadonlyMap<string, Buffer>;
}

/**
 * A key's id, derived from the key itself so an operator names nothing: the first 8 bytes of a
 * hash under a label of its own, which says nothing usable about the key.
 */
export const keyIdOf = (hexKey: string): string =>
  createHash('sha256').update('finops-encryption-key-id:').update(Buffer.from(hexKey, 'hex')).digest('hex').slice(0, 16);

/** `ENCRYPTION_KEY` as the current key, and the retired ones (`ENCRYPTION_KEYS_RETIRED`) still opened. */
export function keyringOf(config: { ENCRYPTION_KEY: string; ENCRYPTION_KEYS_RETIRED?: readonly string[] }): Keyring {
  const cached = rings.get(config);
  if (cached) return cached;
  const byId = new Map<string, Buffer>();
  for (const hex of [config.ENCRYPTION_KEY, ...(config.ENCRYPTION_KEYS_RETIRED ?? [])]) byId.set(keyIdOf(hex), Buffer.from(hex, 'hex'));
  const ring = { current: { id: keyIdOf(config.ENCRYPTION_KEY), key: Buffer.from(config.ENCRYPTION_KEY, 'hex') }, byId };
  rings.set(config, ring);
  return ring;
}
// One keyring per loaded config object: sealing is on request paths, hashing the keys again each time is waste.
const rings = new WeakMap<object, Keyring>();

export function encrypt(plain: string, ring: Keyring): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v2', ring.current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

export function decrypt(sealed: string, ring: Keyring): string {
  const parts = sealed.split(':');
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, keyId, iv, tag, data] = parts;
    const key = ring.byId.get(keyId);
    if (!key) throw new Error(`sealed with key ${keyId}, which is not configured (ENCRYPTION_KEY, ENCRYPTION_KEYS_RETIRED)`);
    return open(key, iv, tag, data);
  }
  // An empty ciphertext is an empty secret, so only a missing part is refused.
  if (parts[0] !== 'v1' || parts.length !== 4 || !parts[1] || !parts[2]) throw new Error('not a sealed value');
  const [, iv, tag, data] = parts;
  let failure: unknown;
  for (const key of [ring.current.key, ...ring.byId.values()]) {
    try {
      return open(key, iv, tag, data);
    } catch (err) {
      failure = err; // GCM's tag did not authenticate under this key: try the next.
    }
  }
  throw failure;
}

/** Whether a sealed value is already under the current key (ReEncrypt leaves such values alone). */
export const sealedWithCurrent = (sealed: string, ring: Keyring): boolean => sealed.startsWith(`v2:${ring.current.id}:`);

function open(key: Buffer, iv: string, tag: string, data: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
