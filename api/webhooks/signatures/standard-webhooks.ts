import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../shared/domain/crypto/tokens';

/**
 * Standard Webhooks: `webhook-signature: v1,<base64> …` over `${id}.${timestamp}.${rawBody}`,
 * key = base64-decoded secret after `whsec_`, timestamps within ±5 minutes.
 */
export function verifyStandardWebhook(
  headers: Record<string, string | string[] | undefined>,
  raw: string,
  secret: string | undefined,
  toleranceS = 300,
  now = Date.now(),
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (!secret || typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > toleranceS) return false;
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
  let ok = false;
  for (const entry of signature.split(' ')) {
    const [version, sig] = entry.split(',', 2);
    if (version === 'v1' && sig) ok = safeEqual(expected, sig) || ok;
  }
  return ok;
}
