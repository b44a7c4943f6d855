import { TeamScopedModel } from './base';

/**
 * One email of an invoice (sequence 0) or of one of its reminders (1…): claimed before the send and
 * marked sent after, so a retry finds it sent. A credit note's email is kind `credit_note`, its
 * sequence the credit note's. A row never sent with an empty recipient is a
 * reminder passed over for want of one.
 */
export class InvoiceDelivery extends TeamScopedModel {
  static override tableName = 'invoice_deliveries';
  invoiceId!: string;
  kind!: 'invoice' | 'reminder' | 'credit_note';
  sequence!: number;
  recipient!: string;
  messageId!: string;
  claimedAt!: Date;
  sentAt!: Date | null;
}
