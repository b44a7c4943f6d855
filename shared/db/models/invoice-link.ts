import { TeamScopedModel } from './base';

/** A public link to an invoice (`/i/:token`); only the token's hash is kept, and one link per invoice is live. */
export class InvoiceLink extends TeamScopedModel {
  static override tableName = 'invoice_links';
  invoiceId!: string;
  tokenHash!: string;
  revokedAt!: Date | null;
}
