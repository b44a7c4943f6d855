import { TeamScopedModel } from './base';

export const PAYMENT_SUGGESTION_STATUSES = ['pending', 'confirmed', 'declined'] as const;

/** A bank transaction that may pay an invoice, waiting for a person to confirm or decline it. */
export class InvoicePaymentSuggestion extends TeamScopedModel {
  static override tableName = 'invoice_payment_suggestions';
  invoiceId!: string;
  transactionId!: string;
  /** Why: the invoice number in the reference, the customer's name, or the amount alone. */
  reason!: 'number' | 'customer' | 'amount';
  status!: (typeof PAYMENT_SUGGESTION_STATUSES)[number];
  decidedAt!: Date | null;
  decidedBy!: string | null;
}
