import { TeamScopedModel } from './base';

export class Invoice extends TeamScopedModel {
  static override tableName = 'invoices';
  customerId!: string | null;
  invoiceNumber!: string;
  status!: 'draft' | 'scheduled' | 'unpaid' | 'overdue' | 'paid' | 'canceled' | 'refunded';
  currency!: string;
  subtotal!: number;
  tax!: number;
  vat!: number;
  discount!: number;
  amount!: number;
  issueDate!: string | null;
  dueDate!: string | null;
  note!: string | null;
  scheduledAt!: string | null;
  sentAt!: string | null;
  paidAt!: string | null;
  refundedAt!: string | null;
  canceledAt!: string | null;
  paymentReference!: string | null;
  createdBy!: string | null;
  updatedAt!: string;
}
