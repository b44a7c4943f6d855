import { BaseModel } from './base';

export class Team extends BaseModel {
  static override tableName = 'teams';
  name!: string;
  inboxId!: string;
  email!: string | null;
  baseCurrency!: string | null;
  countryCode!: string | null;
  logoUrl!: string | null;
  plan!: 'trial' | 'starter' | 'pro';
  subscriptionStatus!: 'trialing' | 'active' | 'past_due' | 'canceled' | 'revoked' | null;
  subscriptionId!: string | null;
  billingCustomerId!: string | null;
  subscriptionCurrentPeriodEnd!: string | null;
  canceledAt!: string | null;
  autoMatch!: boolean;
  updatedAt!: string;
}
