import { createCipheriv, randomBytes } from 'node:crypto';
import { decrypt, encrypt, keyIdOf, keyringOf, sealedWithCurrent } from '../../shared/domain/crypto/encryption';

const newKey = randomBytes(32).toString('hex');
const oldKey = randomBytes(32).toString('hex');
const otherKey = randomBytes(32).toString('hex');

/** A value as the code before key ids sealed it: `v1:<iv>:<tag>:<ciphertext>`. */
function sealV1(plain: string, hexKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

describe('the encryption keyring', () => {
  const rotated = keyringOf({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_RETIRED: [oldKey] });
  const before = keyringOf({ ENCRYPTION_KEY: oldKey });

  it('seals under the current key, named by an id derived from it that does not contain it', () => {
    const sealed = encrypt('access-sandbox-123', rotated);
    expect(sealed.split(':').slice(0, 2)).toEqual(['v2', keyIdOf(newKey)]);
    expect(keyIdOf(newKey)).toMatch(/^[0-9a-f]{16}$/);
    expect(newKey).not.toContain(keyIdOf(newKey));
    expect(keyIdOf(newKey)).toBe(keyIdOf(newKey.toUpperCase()));
    expect(decrypt(sealed, rotated)).toBe('access-sandbox-123');
    expect(sealedWithCurrent(sealed, rotated)).toBe(true);
  });

  it('opens what a retired key sealed, and what was sealed before keys had ids', () => {
    const underOld = encrypt('whsec_old', before);
    expect(sealedWithCurrent(underOld, rotated)).toBe(false);
    expect(decrypt(underOld, rotated)).toBe('whsec_old');
    expect(decrypt(sealV1('legacy', oldKey), rotated)).toBe('legacy');
    expect(decrypt(sealV1('legacy-new', newKey), rotated)).toBe('legacy-new');
    expect(decrypt(sealV1('', newKey), rotated)).toBe('');
  });

  it('names the missing key when a value was sealed under one that is not configured', () => {
    const underOld = encrypt('secret', before);
    const withoutOld = keyringOf({ ENCRYPTION_KEY: newKey });
    expect(() => decrypt(underOld, withoutOld)).toThrow(`sealed with key ${keyIdOf(oldKey)}, which is not configured`);
    expect(() => decrypt(sealV1('x', otherKey), rotated)).toThrow();
  });

  it('refuses a value that was altered, or is not a sealed value at all', () => {
    const sealed = encrypt('secret', rotated).split(':');
    const data = Buffer.from(sealed[4], 'base64url');
    data[0] ^= 1;
    sealed[4] = data.toString('base64url');
    expect(() => decrypt(sealed.join(':'), rotated)).toThrow();
    expect(() => decrypt('plain text', rotated)).toThrow('not a sealed value');
    expect(() => decrypt('v1:abc', rotated)).toThrow('not a sealed value');
  });
});
