import type { PartialModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { Invoice } from '../../db/models';
import { conflict } from '../../errors';

export type InvoiceStatus = Invoice['status'];

/**
 * The invoice status machine: every status change is one of these, and nothing else writes
 * `invoices.status`. A payment reported by the payment provider is the same `mark-paid` as one
 * recorded by hand.
 */
const TRANSITIONS = {
  finalize: { from: ['draft'], to: 'unpaid' },
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
}

const DAY = 86_400_000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** The invoice row, locked until the caller's transaction ends: a status change reads and writes under this lock. */
export async function lockInvoice(trx: Db, teamId: string, id: string): Promise<Invoice | undefined> {
  return Invoice.query(trx).findOne({ teamId, id }).forUpdate();
}

/** Moves a locked invoice along one transition; 409 when its status is not one the transition starts from. */
export async function transitionInvoice(
  trx: Db,
  invoice: Pick<Invoice, 'id' | 'teamId' | 'status' | 'issueDate' | 'dueDate'>,
  t: InvoiceTransition,
  details: TransitionDetails = {},
): Promise<void> {
  if (!canTransition(invoice.status, t)) throw conflict(`Cannot ${t.replace('-', ' ')} an invoice that is ${invoice.status}`);
  const now = new Date();
  const at = details.at ?? now;
  const patch: PartialModelObject<Invoice> = { status: TRANSITIONS[t].to, updatedAt: now };
  switch (t) {
    case 'finalize': {
      const issue = invoice.issueDate ?? isoDate(now);
      patch.issueDate = issue;
      patch.dueDate = invoice.dueDate ?? isoDate(new Date(new Date(`${issue}T00:00:00Z`).getTime() + 30 * DAY));
      break;
    }
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
}
