import type { InsightSummary } from '../../domain/insights/schema';
import { TeamScopedModel } from './base';

export class Insight extends TeamScopedModel {
  static override tableName = 'insights';
  static override jsonAttributes = ['summary'];
  periodType!: 'weekly';
  periodStart!: string;
  periodEnd!: string;
  currency!: string | null;
  summary!: InsightSummary;
  announcedAt!: Date | null;
  updatedAt!: Date;
}
