import { z } from 'zod';
import type { ApiDeps } from '../deps';
import type { WebhookSpec } from './pipeline';
import { verifyTimestampedHmac } from './signatures/hmac-timestamped';

const metadata = z.object({ invoice_id: z.string().optional(), team_id: z.string().optional() }).passthrough();
const payload = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.object({
    object: z
      .object({ id: z.string(), object: z.string().optional(), metadata: metadata.optional(), payment_intent: z.string().nullable().optional(), amount: z.number().optional(), currency: z.string().optional() })
      .passthrough(),
  }),
});
type Payload = z.infer<typeof payload>;

const PAID = new Set(['payment_intent.succeeded', 'checkout.session.completed']);
const REFUNDED = new Set(['charge.refunded']);
const FAILED = new Set(['payment_intent.payment_failed']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /webhook/payments (Stripe wire format): invoice payments, refunds and failures. */
export function paymentsWebhook(deps: ApiDeps): WebhookSpec<Payload, Payload> {
  const { db } = deps;
  return {
    provider: 'payments',
    maxBytes: 1024 * 1024,
    verify: (req) => verifyTimestampedHmac(req.headers['payments-signature'] as string | undefined, req.raw, deps.config.PAYMENTS_WEBHOOK_SECRET ? [deps.config.PAYMENTS_WEBHOOK_SECRET] : [], 300),
    schema: payload,
    events: (p) => [{ key: p.id, type: p.type, event: p }],
    async handle({ event: p }) {
      const obj = p.data.object;
      const invoiceId = obj.metadata?.invoice_id;
      const teamId = obj.metadata?.team_id;
      if (!invoiceId || !teamId || !UUID.test(invoiceId) || !UUID.test(teamId)) return { outcome: 'ignored' };
      const invoice = await db('invoices').where({ id: invoiceId, teamId }).first();
      if (!invoice) return { outcome: 'ignored', teamId };
      const notify = (type: string, extra: Record<string, unknown> = {}) =>
        db('notifications').insert({ teamId, type, priority: 3, metadata: JSON.stringify({ invoiceId, invoiceNumber: invoice.invoiceNumber, paymentEventId: p.id, ...extra }) });
      if (PAID.has(p.type)) {
        if (invoice.status === 'paid') return { outcome: 'ignored', teamId };
        await db('invoices').where({ id: invoiceId }).update({ status: 'paid', paidAt: new Date(p.created * 1000), paymentReference: obj.payment_intent ?? obj.id, updatedAt: new Date() });
        await notify('invoice_paid');
        return { outcome: 'processed', teamId };
      }
      if (REFUNDED.has(p.type)) {
        await db('invoices').where({ id: invoiceId }).update({ status: 'refunded', refundedAt: new Date(p.created * 1000), updatedAt: new Date() });
        await notify('invoice_refunded');
        return { outcome: 'processed', teamId };
      }
      if (FAILED.has(p.type)) {
        await notify('invoice_payment_failed', { reason: (obj as any).last_payment_error?.message ?? null });
        return { outcome: 'processed', teamId };
      }
      return { outcome: 'ignored', teamId };
    },
  };
}
