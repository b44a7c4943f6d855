import { TeamScopedModel } from './base';

export class CustomerTag extends TeamScopedModel {
  static override tableName = 'customer_tags';
  customerId!: string;
  tagId!: string;
}
