import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret, Standard Webhooks style: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` is the delivery id (the same on every
 * retry and replay, so a receiver can drop duplicates), `webhook-timestamp` the attempt's time in
 * seconds, `webhook-signature` `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 */
export function signedHeaders(secret: string, deliveryId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(deliveryId, at, body),
  };
}
