import { createHmac } from 'node:crypto';
import { sameHexDigest } from '../../../shared/domain/crypto/tokens';

/**
 * `t=<unix>,v1=<hex>[,v1=<hex>…]` over `${t}.${rawBody}` with HMAC-SHA256: the scheme of bank-b
 * (Teller) and payments (Stripe). Any listed signature may match any configured secret (rotation).
 */
export function verifyTimestampedHmac(
  header: string | undefined,
  raw: string,
  secrets: string[],
  toleranceS: number,
  now = Date.now(),
): boolean {
  if (!header || secrets.length === 0) return false;
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    // A part without `=` has no value.
    const [k, v]: (string | undefined)[] = part.split('=', 2).map((s) => s.trim());
    if (k === 't') t = v;
    else if (k === 'v1' && v) signatures.push(v);
  }
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) return false;
  const age = now / 1000 - Number(t);
  if (age > toleranceS || age < -toleranceS) return false;
  const expected = secrets.map((s) => createHmac('sha256', s).update(t).update('.').update(raw).digest());
  // Compare every pair: no early exit, so timing reveals nothing about which one matched.
  let ok = false;
  for (const e of expected) for (const sig of signatures) ok = sameHexDigest(e, sig) || ok;
  return ok;
}
