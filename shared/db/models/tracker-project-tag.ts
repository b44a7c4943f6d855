import { TeamScopedModel } from './base';

export class TrackerProjectTag extends TeamScopedModel {
  static override tableName = 'tracker_project_tags';
  projectId!: string;
  tagId!: string;
}
