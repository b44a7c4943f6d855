import { Model, type RelationMappings } from 'objection';
import { TeamScopedModel } from './base';
import { Team } from './team';
import { User } from './user';

export class TeamMember extends TeamScopedModel {
  static override tableName = 'team_members';
  userId!: string;
  role!: 'owner' | 'member';
  team?: Team;
  user?: User;

  static override relationMappings = (): RelationMappings => ({
    team: { relation: Model.BelongsToOneRelation, modelClass: Team, join: { from: 'team_members.teamId', to: 'teams.id' } },
    user: { relation: Model.BelongsToOneRelation, modelClass: User, join: { from: 'team_members.userId', to: 'users.id' } },
  });
}
