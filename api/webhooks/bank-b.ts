import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { findConnection, setStatus, startSync } from './banking-effects';
import type { WebhookSpec } from './pipeline';
import { verifyTimestampedHmac } from './signatures/hmac-timestamped';

const payload = z.discriminatedUnion('type', [
  z.object({ id: z.string().min(1), type: z.literal('enrollment.disconnected'), timestamp: z.string(), payload: z.object({ enrollment_id: z.string().min(1), reason: z.string().optional() }).passthrough() }),
  z.object({ id: z.string().min(1), type: z.literal('transactions.processed'), timestamp: z.string(), payload: z.object({ enrollment_id: z.string().min(1) }).passthrough() }),
  z.object({ id: z.string().min(1), type: z.literal('webhook.test'), timestamp: z.string(), payload: z.object({}).passthrough() }),
  z.object({ id: z.string().min(1), type: z.literal('account.number_verification.processed'), timestamp: z.string(), payload: z.object({}).passthrough() }),
]);
type Payload = z.infer<typeof payload>;

/** POST /webhook/bank-b (Teller wire format). */
export function bankBWebhook(deps: ApiDeps): WebhookSpec<Payload, Payload> {
  return {
    provider: 'bank-b',
    maxBytes: 1024 * 1024,
    verify: (req) => verifyTimestampedHmac(req.headers['bank-b-signature'] as string | undefined, req.raw, deps.config.BANK_B_WEBHOOK_SECRETS, 180),
    schema: payload,
    events: (p) => [{ key: p.id, type: p.type, event: p }],
    async handle({ event: p }) {
      if (p.type === 'webhook.test' || p.type === 'account.number_verification.processed') return { outcome: 'processed' };
      const conn = await findConnection(deps, 'bank-b', p.payload.enrollment_id);
      if (!conn) return { outcome: 'ignored' };
      if (p.type === 'enrollment.disconnected') return setStatus(deps, conn, 'disconnected', { code: p.payload.reason ?? 'disconnected', message: null });
      return startSync(deps, conn);
    },
  };
}
