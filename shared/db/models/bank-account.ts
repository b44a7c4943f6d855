import { TeamScopedModel } from './base';

export class BankAccount extends TeamScopedModel {
  static override tableName = 'bank_accounts';
  bankConnectionId!: string | null;
  providerAccountId!: string | null;
  name!: string;
  currency!: string;
  type!: 'depository' | 'credit' | 'loan' | 'other_asset' | 'other_liability';
  subtype!: string | null;
  mask!: string | null;
  balance!: number | null;
  availableBalance!: number | null;
  creditLimit!: number | null;
  enabled!: boolean;
  manual!: boolean;
  updatedAt!: string;
}
