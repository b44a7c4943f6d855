import { snakeCaseMappers } from 'objection';
import { TeamScopedModel } from './base';

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
  note!: string | null;
  /** Overdue invoices to this customer are chased on the team's cadence (off unless turned on). */
  invoiceReminders!: boolean;
  updatedAt!: Date;
}
