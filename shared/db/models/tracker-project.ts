import { TeamScopedModel } from './base';

export class TrackerProject extends TeamScopedModel {
  static override tableName = 'tracker_projects';
  customerId!: string | null;
  name!: string;
  description!: string | null;
  status!: 'in_progress' | 'completed';
  billable!: boolean;
  rate!: number | null;
  currency!: string | null;
  estimateHours!: number | null;
  updatedAt!: string;
}
