import { TeamScopedModel } from './base';

export class TrackerEntry extends TeamScopedModel {
  static override tableName = 'tracker_entries';
  projectId!: string;
  assignedId!: string | null;
  description!: string | null;
  date!: string;
  start!: Date;
  stop!: Date | null;
  duration!: number | null;
  rate!: number | null;
  currency!: string | null;
  billed!: boolean;
  /** The invoice that billed it; cleared when that invoice is deleted, so the time can be billed again. */
  invoiceId!: string | null;
  updatedAt!: Date;
}
