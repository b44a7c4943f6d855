import { TeamScopedModel } from './base';

export class InvoiceLineItem extends TeamScopedModel {
  static override tableName = 'invoice_line_items';
  invoiceId!: string;
  position!: number;
  name!: string;
  quantity!: number;
  unit!: string | null;
  price!: number;
  vatRate!: number | null;
  taxRate!: number | null;
}
