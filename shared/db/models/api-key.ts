import { TeamScopedModel } from './base';

export class ApiKey extends TeamScopedModel {
  static override tableName = 'api_keys';
  userId!: string;
  name!: string;
  keyHash!: string;
  keyHint!: string;
  scopes!: string[];
  lastUsedAt!: string | null;
  updatedAt!: string;
}
