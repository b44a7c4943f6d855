import { snakeCaseMappers } from 'objection';
import { TeamScopedModel } from './base';

export const E_INVOICE_FORMATS = ['facturx', 'xrechnung', 'ubl', 'cii'] as const;

export class Customer extends TeamScopedModel {
  static override tableName = 'customers';
  // The columns are address_line_1 and address_line_2, which the knex-wide mapper would write as
  // address_line1; this model names them itself (a digit after an underscore), before knex sees them.
  static override columnNameMappers = snakeCaseMappers({ underscoreBeforeDigits: true });
  name!: string;
  email!: string | null;
  billingEmail!: string | null;
  phone!: string | null;
  website!: string | null;
  contact!: string | null;
  addressLine1!: string | null;
  addressLine2!: string | null;
  city!: string | null;
  state!: string | null;
  zip!: string | null;
  countryCode!: string | null;
  vatNumber!: string | null;
  /** BT-10: the reference the buyer asks invoices to carry (a German public buyer's Leitweg-ID). */
  buyerReference!: string | null;
  /** The e-invoice its invoice emails carry beside the PDF; null: the PDF alone. */
  eInvoiceFormat!: (typeof E_INVOICE_FORMATS)[number] | null;
  note!: string | null;
  /** Overdue invoices to this customer are chased on the team's cadence (off unless turned on). */
  invoiceReminders!: boolean;
  updatedAt!: Date;
}
