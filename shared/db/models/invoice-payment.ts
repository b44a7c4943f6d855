import { TeamScopedModel } from './base';

/** A payment recorded against an invoice; the invoice's `amountPaid` is their sum. */
export class InvoicePayment extends TeamScopedModel {
  static override tableName = 'invoice_payments';
  invoiceId!: string;
  amount!: number;
  paidAt!: Date;
  reference!: string | null;
  /** The bank transaction it was matched from, if any: one payment per transaction. */
  transactionId!: string | null;
  createdBy!: string | null;
}
