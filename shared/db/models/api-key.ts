import { Model, type RelationMappings } from 'objection';
import { TeamScopedModel } from './base';
import { User } from './user';

export class ApiKey extends TeamScopedModel {
  static override tableName = 'api_keys';
  userId!: string;
  name!: string;
  keyHash!: string;
  keyHint!: string;
  scopes!: string[];
  lastUsedAt!: Date | null;
  updatedAt!: Date;
  /** Who created it (`withGraphFetched('user')`). */
  user?: User;

  static override relationMappings = (): RelationMappings => ({
    user: { relation: Model.BelongsToOneRelation, modelClass: User, join: { from: 'api_keys.userId', to: 'users.id' } },
  });
}
