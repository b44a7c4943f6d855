import { TeamScopedModel } from './base';

export class TransactionCategory extends TeamScopedModel {
  static override tableName = 'transaction_categories';
  parentId!: string | null;
  name!: string;
  slug!: string;
  color!: string | null;
  description!: string | null;
  taxRate!: number | null;
  taxType!: string | null;
  system!: boolean;
  excluded!: boolean;
}
