import { TeamScopedModel } from './base';

export const INVOICE_STATUSES = ['draft', 'scheduled', 'unpaid', 'overdue', 'paid', 'canceled', 'refunded'] as const;

export class Invoice extends TeamScopedModel {
  static override tableName = 'invoices';
  customerId!: string | null;
  /** Given when the invoice is issued (finalize, send), from the team's gap-free series; null on a draft unless chosen by hand. */
  invoiceNumber!: string | null;
  status!: (typeof INVOICE_STATUSES)[number];
  currency!: string;
  subtotal!: number;
  tax!: number;
  vat!: number;
  discount!: number;
  amount!: number;
  issueDate!: string | null;
  dueDate!: string | null;
  note!: string | null;
  scheduledAt!: Date | null;
  sentAt!: Date | null;
  paidAt!: Date | null;
  refundedAt!: Date | null;
  canceledAt!: Date | null;
  viewedAt!: Date | null;
  paymentReference!: string | null;
  /** The lifecycle emails the invoice to the customer when it is issued (send or schedule), not on a bare finalize. */
  emailDelivery!: boolean;
  /** What payments recorded against it add up to; the invoice is paid when they reach `amount`. */
  amountPaid!: number;
  /** What credit notes have credited (gross). */
  amountCredited!: number;
  /** The recurring series that issued it, and the scheduled moment it was issued for. */
  seriesId!: string | null;
  seriesPeriod!: Date | null;
  createdBy!: string | null;
  updatedAt!: Date;
}
