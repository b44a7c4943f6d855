import { TeamScopedModel } from './base';
import type { RECEIVED_E_INVOICE_FORMATS, ReceivedEInvoice } from './received-e-invoice';

/** The statuses an item is listed under. */
export const INBOX_STATUSES = [
  'new',
  'processing',
  'analyzing',
  'pending',
  'suggested_match',
  'no_match',
  'done',
  'archived',
  'failed',
] as const;
/** Every status an item can have: a deleted one is kept but never listed. */
export const INBOX_ITEM_STATUSES = [...INBOX_STATUSES, 'deleted'] as const;
export const INBOX_SOURCES = ['messaging', 'email', 'upload'] as const;
export const EXTRACTION_METHODS = ['pdf_text', 'ocr', 'llm', 'e_invoice'] as const;

export class InboxItem extends TeamScopedModel {
  static override tableName = 'inbox_items';
  static override jsonAttributes = ['eInvoice'];
  documentId!: string | null;
  source!: (typeof INBOX_SOURCES)[number];
  /** The source message id: unique per team. */
  reference!: string;
  status!: (typeof INBOX_ITEM_STATUSES)[number];
  sender!: string | null;
  fileName!: string | null;
  mimeType!: string | null;
  size!: number | null;
  displayName!: string | null;
  note!: string | null;
  amount!: number | null;
  currency!: string | null;
  date!: string | null;
  taxAmount!: number | null;
  taxRate!: number | null;
  extractionMethod!: (typeof EXTRACTION_METHODS)[number] | null;
  /** The syntax of a supplier's e-invoice read structurally (see e-invoices/incoming); null for any other file. */
  eInvoiceFormat!: (typeof RECEIVED_E_INVOICE_FORMATS)[number] | null;
  eInvoice!: ReceivedEInvoice | null;
  /** Why the file was refused (status failed): a malformed or forged e-invoice. */
  failureReason!: string | null;
  transactionId!: string | null;
  workflowId!: string | null;
  deletedAt!: Date | null;
  updatedAt!: Date;
}
