import { TeamScopedModel } from './base';

export const ACCOUNT_TYPES = ['depository', 'credit', 'loan', 'other_asset', 'other_liability'] as const;

export class BankAccount extends TeamScopedModel {
  static override tableName = 'bank_accounts';
  bankConnectionId!: string | null;
  providerAccountId!: string | null;
  name!: string;
  currency!: string;
  type!: (typeof ACCOUNT_TYPES)[number];
  subtype!: string | null;
  mask!: string | null;
  balance!: number | null;
  availableBalance!: number | null;
  creditLimit!: number | null;
  enabled!: boolean;
  manual!: boolean;
  /** Manual accounts: the balance on `openingBalanceDate`, from which the current one is computed. */
  openingBalance!: number | null;
  openingBalanceDate!: string | null;
  updatedAt!: Date;
}
