import { TeamScopedModel } from './base';

/** A transaction category of the team: the `categories` resource (its table keeps the name `transaction_categories`). */
export class Category extends TeamScopedModel {
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
