import type { Db } from '../../db/knex';
import type { TemporalGateway } from '../../temporal/client';
import { signalInvoiceChanged } from '../../temporal/invoice-lifecycle/calls';
import { notify } from '../notifications/service';
import type { WebhookOutcome } from '../webhook-events/record';
import { canTransition, lockInvoice, transitionInvoice } from './status';
import { numberShown } from './numbering';

/** What the payment provider reports about an invoice, in our terms. */
export type PaymentEvent =
  { kind: 'paid'; at: Date; reference: string } | { kind: 'refunded'; at: Date } | { kind: 'failed'; reason: string | null };

/**
 * Applies a payment provider's event to the invoice it names, through the status machine: a
 * payment pays an unpaid or overdue invoice, a refund refunds a paid one. A payment or refund the
 * invoice's status does not allow (a canceled or draft invoice paid, an unpaid one refunded) is
 * not applied but reported, so someone can sort it out with the customer; a repeat is a no-op.
 */
export async function applyPaymentEvent(
  db: Db,
  temporal: TemporalGateway,
  target: { teamId: string; invoiceId: string; eventId: string },
  event: PaymentEvent,
): Promise<WebhookOutcome> {
  const { teamId, invoiceId, eventId } = target;
  const outcome = await db.transaction(async (trx): Promise<WebhookOutcome> => {
    const invoice = await lockInvoice(trx, teamId, invoiceId);
    if (!invoice) return { outcome: 'ignored' };
    const payment = { invoiceId, invoiceNumber: numberShown(invoice), paymentEventId: eventId };
    const processed: WebhookOutcome = { outcome: 'processed', teamId };
    const unapplied = async (kind: 'payment' | 'refund') => {
      await notify(trx, {
        teamId,
        type: 'invoice_payment_unapplied',
        metadata: { ...payment, event: kind, invoiceStatus: invoice.status },
      });
      return processed;
    };
    switch (event.kind) {
      case 'paid':
        if (invoice.status === 'paid') return { outcome: 'ignored', teamId };
        if (!canTransition(invoice.status, 'mark-paid')) return unapplied('payment');
        await transitionInvoice(trx, invoice, 'mark-paid', { at: event.at, paymentReference: event.reference });
        await notify(trx, { teamId, type: 'invoice_paid', metadata: payment });
        return processed;
      case 'refunded':
        if (invoice.status === 'refunded') return { outcome: 'ignored', teamId };
        if (!canTransition(invoice.status, 'refund')) return unapplied('refund');
        await transitionInvoice(trx, invoice, 'refund', { at: event.at });
        await notify(trx, { teamId, type: 'invoice_refunded', metadata: payment });
        return processed;
      case 'failed':
        await notify(trx, { teamId, type: 'invoice_payment_failed', metadata: { ...payment, reason: event.reason } });
        return processed;
    }
  });
  // Paid or refunded ends the invoice's lifecycle; best effort, as for every ending (lifecycle.ts).
  if (outcome.outcome === 'processed' && event.kind !== 'failed') await signalInvoiceChanged(temporal, invoiceId).catch(() => false);
  return outcome;
}
