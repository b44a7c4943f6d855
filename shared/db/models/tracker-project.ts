import type { PROJECT_STATUSES } from '../../domain/tracker/schema';
import { TeamScopedModel } from './base';

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
