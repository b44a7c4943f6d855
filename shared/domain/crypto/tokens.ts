import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex: how every key, secret, code and token is stored. One-shot: no Hash object per call (every request hashes its credential). */
export const sha256Hex = (value: string) => hash('sha256', value, 'hex');

/** Constant-time equality for secrets of any length (lengths are compared via their hashes). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * Constant-time check of a hex digest a sender gave against the one computed: the digest's length
 * is public, so no hashing to hide it. A string of the right length decodes to the right number of
 * bytes only if every character is hex.
 */
export function sameHexDigest(expected: Buffer, given: string): boolean {
  if (given.length !== expected.length * 2) return false;
  const bytes = Buffer.from(given, 'hex');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

export const API_KEY_PATTERN = /^svc_[0-9a-f]{64}$/;
export const ACCESS_TOKEN_PREFIX = 'svc_access_token_';
export const REFRESH_TOKEN_PREFIX = 'svc_refresh_token_';

export const newApiKey = () => `svc_${randomBytes(32).toString('hex')}`;
export const newAccessToken = () => `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const newRefreshToken = () => `${REFRESH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const newOpaqueSecret = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const newOAuthClientId = () => `svc_client_${randomBytes(16).toString('hex')}`;
export const newOAuthClientSecret = () => `svc_secret_${newOpaqueSecret()}`;
