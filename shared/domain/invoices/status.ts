import type { PartialModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { Invoice } from '../../db/models';
import { isoDate } from '../../db/timestamps';
import { conflict } from '../../errors';
import { emitEvent } from '../webhook-endpoints/events';
import { nextInvoiceNumber } from './numbering';

export type InvoiceStatus = Invoice['status'];

/**
 * The invoice status machine: every status change is one of these, and nothing else writes
 * `invoices.status`. A payment reported by the payment provider is the same `mark-paid` as one
 * recorded by hand.
 */
const TRANSITIONS = {
  /** Issue without delivering: the team sends the PDF or link itself. */
  finalize: { from: ['draft'], to: 'unpaid' },
  /** Issue and email it to the customer (now, or when a scheduled send comes due). */
  send: { from: ['draft', 'scheduled'], to: 'unpaid' },
  /** Send it later; on a scheduled invoice this moves the time. */
  schedule: { from: ['draft', 'scheduled'], to: 'scheduled' },
  unschedule: { from: ['scheduled'], to: 'draft' },
  'mark-overdue': { from: ['unpaid'], to: 'overdue' },
  'mark-paid': { from: ['unpaid', 'overdue'], to: 'paid' },
  cancel: { from: ['draft', 'scheduled', 'unpaid', 'overdue'], to: 'canceled' },
  refund: { from: ['paid'], to: 'refunded' },
} as const satisfies Record<string, { from: readonly InvoiceStatus[]; to: InvoiceStatus }>;

export type InvoiceTransition = keyof typeof TRANSITIONS;

export const canTransition = (status: InvoiceStatus, t: InvoiceTransition): boolean =>
  (TRANSITIONS[t].from as readonly InvoiceStatus[]).includes(status);

export interface TransitionDetails {
  /** When it was paid or refunded; default now. */
  at?: Date;
  paymentReference?: string | null;
  /** schedule: when it goes out. */
  sendAt?: Date;
}

const DAY = 86_400_000;

/** The invoice row, locked until the caller's transaction ends: a status change reads and writes under this lock. */
export async function lockInvoice(trx: Db, teamId: string, id: string): Promise<Invoice | undefined> {
  return Invoice.query(trx).findOne({ teamId, id }).forUpdate();
}

/** Moves a locked invoice along one transition and returns its new status; 409 when its status is not one the transition starts from. */
export async function transitionInvoice(
  trx: Db,
  invoice: Pick<Invoice, 'id' | 'teamId' | 'status' | 'issueDate' | 'dueDate' | 'invoiceNumber'>,
  t: InvoiceTransition,
  details: TransitionDetails = {},
): Promise<InvoiceStatus> {
  if (!canTransition(invoice.status, t)) throw conflict(`Cannot ${t.replace('-', ' ')} an invoice that is ${invoice.status}`);
  const now = new Date();
  const at = details.at ?? now;
  const patch: PartialModelObject<Invoice> = { status: TRANSITIONS[t].to, updatedAt: now };
  if (t === 'send') {
    patch.emailDelivery = true;
    patch.scheduledAt = null;
  }
  switch (t) {
    // A sent invoice is issued as a finalised one is.
    case 'send':
    case 'finalize': {
      const issue = invoice.issueDate ?? isoDate(now);
      patch.issueDate = issue;
      patch.dueDate = invoice.dueDate ?? isoDate(new Date(new Date(`${issue}T00:00:00Z`).getTime() + 30 * DAY));
      // Numbered as it is issued, not as it is drafted: a draft deleted or never issued leaves no gap.
      patch.invoiceNumber = invoice.invoiceNumber ?? (await nextInvoiceNumber(trx, invoice.teamId));
      break;
    }
    case 'schedule':
      if (!details.sendAt) throw new Error('schedule needs sendAt');
      patch.scheduledAt = details.sendAt;
      break;
    case 'unschedule':
      patch.scheduledAt = null;
      break;
    case 'mark-overdue':
      break;
    case 'mark-paid':
      patch.paidAt = at;
      patch.paymentReference = details.paymentReference ?? null;
      break;
    case 'cancel':
      patch.canceledAt = now;
      break;
    case 'refund':
      patch.refundedAt = at;
      break;
  }
  await Invoice.query(trx).patch(patch).where({ teamId: invoice.teamId, id: invoice.id });
  if (t === 'mark-paid' || t === 'mark-overdue') await emitInvoiceEvent(trx, invoice, t, at);
  return TRANSITIONS[t].to;
}

/** The two status changes customers' systems want to hear of, with the transition's own transaction. */
async function emitInvoiceEvent(trx: Db, invoice: Pick<Invoice, 'id' | 'teamId'>, t: 'mark-paid' | 'mark-overdue', at: Date) {
  const row = await Invoice.query(trx).findOne({ teamId: invoice.teamId, id: invoice.id }).select('invoiceNumber', 'status', 'dueDate');
  if (!row) return;
  const data = { invoiceId: invoice.id, invoiceNumber: row.invoiceNumber, status: row.status, dueDate: row.dueDate };
  if (t === 'mark-paid') await emitEvent(trx, invoice.teamId, 'invoice.paid', { ...data, paidAt: at.toISOString() });
  else await emitEvent(trx, invoice.teamId, 'invoice.overdue', data);
}
