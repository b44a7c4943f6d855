import { TeamScopedModel } from './base';

export class TransactionTag extends TeamScopedModel {
  static override tableName = 'transaction_tags';
  transactionId!: string;
  tagId!: string;
}
