import { snakeCaseMappers } from 'objection';
import { BaseModel } from './base';

export const TEAM_PLANS = ['trial', 'starter', 'pro'] as const;
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'revoked'] as const;

export class Team extends BaseModel {
  static override tableName = 'teams';
  // address_line_1 and _2: a digit after an underscore, as the customers' columns (see Customer).
  static override columnNameMappers = snakeCaseMappers({ underscoreBeforeDigits: true });
  static override jsonAttributes = ['agentActionPolicies'];
  name!: string;
  inboxId!: string;
  email!: string | null;
  baseCurrency!: string | null;
  countryCode!: string | null;
  logoUrl!: string | null;
  plan!: (typeof TEAM_PLANS)[number];
  subscriptionStatus!: (typeof SUBSCRIPTION_STATUSES)[number] | null;
  subscriptionId!: string | null;
  billingCustomerId!: string | null;
  subscriptionCurrentPeriodEnd!: Date | null;
  canceledAt!: Date | null;
  autoMatch!: boolean;
  /** From this confidence (0..1) a learned category is applied; below it, only suggested. */
  learnedCategoryThreshold!: number;
  fiscalYearStartMonth!: number | null;
  timezone!: string | null;
  /** Days after an invoice's due date on which its reminders go out. */
  invoiceReminderDays!: number[];
  /** Invoice numbers are this prefix and a number: INV-0001. */
  invoicePrefix!: string;
  /** The next number to use when it is above what the team has used. */
  invoiceNextNumber!: number | null;
  /** How customers pay: printed on every invoice. */
  invoicePaymentDetails!: string | null;
  /** An uploaded image (PNG or JPEG) printed on the team's invoices. */
  logoDocumentId!: string | null;
  /** The seller's postal address, VAT identifier and national tax number on its e-invoices. */
  addressLine1!: string | null;
  addressLine2!: string | null;
  city!: string | null;
  zip!: string | null;
  vatNumber!: string | null;
  taxNumber!: string | null;
  registrationNumber!: string | null;
  phone!: string | null;
  /** Set while TeamDeletion removes the team's rows: nobody acts in it any more. */
  deletionRequestedAt!: Date | null;
  deletionRequestedBy!: string | null;
  /** The tools an agent may use without approval, each up to a number of rows (shared/domain/agent-actions/policies.ts). */
  agentActionPolicies!: { operation: string; maxCount: number }[];
  updatedAt!: Date;
}
