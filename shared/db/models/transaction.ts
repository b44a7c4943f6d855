import { TeamScopedModel } from './base';

export class Transaction extends TeamScopedModel {
  static override tableName = 'transactions';
  bankAccountId!: string | null;
  providerTransactionId!: string | null;
  date!: string;
  name!: string;
  description!: string | null;
  method!: string;
  amount!: number;
  currency!: string;
  status!: 'posted' | 'pending' | 'excluded' | 'completed' | 'archived';
  categorySlug!: string | null;
  counterpartyName!: string | null;
  merchantName!: string | null;
  note!: string | null;
  manual!: boolean;
  internal!: boolean;
  recurring!: boolean;
  frequency!: string | null;
  taxAmount!: number | null;
  taxRate!: number | null;
  taxType!: string | null;
  assignedId!: string | null;
  updatedAt!: string;
}
