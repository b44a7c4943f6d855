import { TeamScopedModel } from './base';

export const TRANSACTION_STATUSES = ['posted', 'pending', 'excluded', 'completed', 'archived'] as const;
export const TRANSACTION_METHODS = [
  'payment',
  'card_purchase',
  'card_atm',
  'transfer',
  'ach',
  'wire',
  'deposit',
  'interest',
  'fee',
  'other',
  'unknown',
] as const;
export const TRANSACTION_FREQUENCIES = ['weekly', 'biweekly', 'monthly', 'semi_monthly', 'annually', 'irregular'] as const;

export class Transaction extends TeamScopedModel {
  static override tableName = 'transactions';
  bankAccountId!: string | null;
  providerTransactionId!: string | null;
  date!: string;
  name!: string;
  description!: string | null;
  method!: (typeof TRANSACTION_METHODS)[number];
  amount!: number;
  currency!: string;
  status!: (typeof TRANSACTION_STATUSES)[number];
  categorySlug!: string | null;
  counterpartyName!: string | null;
  merchantName!: string | null;
  note!: string | null;
  manual!: boolean;
  internal!: boolean;
  recurring!: boolean;
  frequency!: (typeof TRANSACTION_FREQUENCIES)[number] | null;
  taxAmount!: number | null;
  taxRate!: number | null;
  taxType!: string | null;
  assignedId!: string | null;
  updatedAt!: Date;
}
