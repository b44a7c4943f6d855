import { TeamScopedModel } from './base';

export const PROJECT_STATUSES = ['in_progress', 'completed'] as const;

export class TrackerProject extends TeamScopedModel {
  static override tableName = 'tracker_projects';
  customerId!: string | null;
  name!: string;
  description!: string | null;
  status!: (typeof PROJECT_STATUSES)[number];
  billable!: boolean;
  rate!: number | null;
  currency!: string | null;
  estimateHours!: number | null;
  updatedAt!: Date;
}
