import { TeamScopedModel } from './base';

export class TeamMember extends TeamScopedModel {
  static override tableName = 'team_members';
  userId!: string;
  role!: 'owner' | 'member';
}
