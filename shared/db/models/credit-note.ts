import { TeamScopedModel } from './base';

/** A credit note: a document of its own that credits (part of) an issued invoice. Never edited once issued. */
export class CreditNote extends TeamScopedModel {
  static override tableName = 'credit_notes';
  invoiceId!: string;
  creditNoteNumber!: string;
  /** 1, 2, … per invoice. */
  sequence!: number;
  /** EN 16931 document type: always 381 (credit note). */
  typeCode!: '381';
  currency!: string;
  subtotal!: number;
  vat!: number;
  tax!: number;
  discount!: number;
  /** What it credits, gross: positive, as the invoice's amounts are. */
  amount!: number;
  reason!: string | null;
  issueDate!: string;
  /** The customer is emailed it (by the invoice's lifecycle run). */
  emailDelivery!: boolean;
  sentAt!: Date | null;
  createdBy!: string | null;
}

export class CreditNoteLineItem extends TeamScopedModel {
  static override tableName = 'credit_note_line_items';
  creditNoteId!: string;
  position!: number;
  /** The position of the invoice line it credits. */
  invoiceLine!: number;
  name!: string;
  quantity!: number;
  unit!: string | null;
  price!: number;
  vatRate!: number | null;
  taxRate!: number | null;
  net!: number;
  vatAmount!: number;
  taxAmount!: number;
}
