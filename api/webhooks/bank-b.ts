import { z } from 'zod';
import { applyConnectionEvent, type ConnectionEvent } from '../../shared/domain/bank-connections/webhook-effects';
import type { ApiDeps } from '../deps';
import type { WebhookSpec } from './pipeline';
import { verifyTimestampedHmac } from './signatures/hmac-timestamped';

const payload = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1),
    type: z.literal('enrollment.disconnected'),
    timestamp: z.string(),
    payload: z.object({ enrollment_id: z.string().min(1), reason: z.string().optional() }).loose(),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('transactions.processed'),
    timestamp: z.string(),
    payload: z.object({ enrollment_id: z.string().min(1) }).loose(),
  }),
  z.object({ id: z.string().min(1), type: z.literal('webhook.test'), timestamp: z.string(), payload: z.object({}).loose() }),
  z.object({
    id: z.string().min(1),
    type: z.literal('account.number_verification.processed'),
    timestamp: z.string(),
    payload: z.object({}).loose(),
  }),
]);
type Payload = z.infer<typeof payload>;

/** POST /webhook/bank-b (Teller wire format). */
export function bankBWebhook(deps: ApiDeps): WebhookSpec<Payload, Payload> {
  return {
    provider: 'bank-b',
    maxBytes: 1024 * 1024,
    verify: (req) =>
      verifyTimestampedHmac(req.headers['bank-b-signature'] as string | undefined, req.raw, deps.config.BANK_B_WEBHOOK_SECRETS, 180),
    schema: payload,
    events: (p) => [{ key: p.id, type: p.type, event: p }],
    async handle({ event: p }) {
      if (p.type === 'webhook.test' || p.type === 'account.number_verification.processed') return { outcome: 'processed' };
      const event: ConnectionEvent =
        p.type === 'enrollment.disconnected'
          ? { kind: 'disconnected', error: { code: p.payload.reason ?? 'disconnected', message: null } }
          : { kind: 'new-data' };
      return applyConnectionEvent(deps, { provider: 'bank-b', referenceId: p.payload.enrollment_id }, event);
    },
  };
}
