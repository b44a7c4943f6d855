import { TeamScopedModel } from './base';

export class Tag extends TeamScopedModel {
  static override tableName = 'tags';
  name!: string;
  color!: string | null;
}
