import { TeamScopedModel } from './base';

/** A saved line item (price, unit, tax) that invoices are filled from; names are unique per team, case-insensitively. */
export class InvoiceProduct extends TeamScopedModel {
  static override tableName = 'invoice_products';
  name!: string;
  description!: string | null;
  price!: number;
  currency!: string | null;
  unit!: string | null;
  vatRate!: number | null;
  taxRate!: number | null;
  updatedAt!: Date;
}
