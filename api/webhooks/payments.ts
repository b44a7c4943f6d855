import { z } from 'zod';
import { applyPaymentEvent, type PaymentEvent } from '../../shared/domain/invoices/payments';
import type { ApiDeps } from '../deps';
import type { WebhookSpec } from './pipeline';
import { verifyTimestampedHmac } from './signatures/hmac-timestamped';

// Ids we did not issue are dropped (the event is ignored), not refused.
const ourId = z.guid().optional().catch(undefined);
const payload = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.object({
    object: z
      .object({
        id: z.string(),
        object: z.string().optional(),
        metadata: z.object({ invoice_id: ourId, team_id: ourId }).loose().optional(),
        payment_intent: z.string().nullable().optional(),
        amount: z.number().optional(),
        currency: z.string().optional(),
        // Only read for the notice: a shape we do not expect is dropped, not refused.
        last_payment_error: z.object({ message: z.string() }).loose().nullable().optional().catch(null),
      })
      .loose(),
  }),
});
type Payload = z.infer<typeof payload>;

function paymentEvent(p: Payload): PaymentEvent | null {
  const obj = p.data.object;
  const at = new Date(p.created * 1000);
  switch (p.type) {
    case 'payment_intent.succeeded':
    case 'checkout.session.completed':
      return { kind: 'paid', at, reference: obj.payment_intent ?? obj.id };
    case 'charge.refunded':
      return { kind: 'refunded', at };
    case 'payment_intent.payment_failed':
      return { kind: 'failed', reason: obj.last_payment_error?.message ?? null };
    default:
      return null;
  }
}

/** POST /webhook/payments (Stripe wire format): invoice payments, refunds and failures. */
export function paymentsWebhook(deps: ApiDeps): WebhookSpec<Payload, Payload> {
  return {
    provider: 'payments',
    maxBytes: 1024 * 1024,
    verify: (req) =>
      verifyTimestampedHmac(
        req.headers['payments-signature'] as string | undefined,
        req.raw,
        deps.config.PAYMENTS_WEBHOOK_SECRET ? [deps.config.PAYMENTS_WEBHOOK_SECRET] : [],
        300,
      ),
    schema: payload,
    events: (p) => [{ key: p.id, type: p.type, event: p }],
    async handle({ event: p }) {
      const { invoice_id: invoiceId, team_id: teamId } = p.data.object.metadata ?? {};
      const event = paymentEvent(p);
      if (!invoiceId || !teamId || !event) return { outcome: 'ignored' };
      return applyPaymentEvent(deps.db, deps.temporal, { teamId, invoiceId, eventId: p.id }, event);
    },
  };
}
