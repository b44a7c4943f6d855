import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets we must use again (bank access tokens): `v1:<iv>:<tag>:<ciphertext>`,
 * base64url parts. The version prefix leaves room for key rotation.
 */
export function encrypt(plain: string, hexKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

export function decrypt(sealed: string, hexKey: string): string {
  const parts = sealed.split(':');
  const [version, iv, tag, data] = parts;
  // An empty ciphertext is an empty secret, so only a missing part is refused.
  if (version !== 'v1' || !iv || !tag || parts.length < 4) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
