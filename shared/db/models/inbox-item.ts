import type { EXTRACTION_METHODS, INBOX_ITEM_STATUSES, INBOX_SOURCES } from '../../domain/inbox/schema';
import { TeamScopedModel } from './base';

export class InboxItem extends TeamScopedModel {
  static override tableName = 'inbox_items';
  documentId!: string | null;
  source!: (typeof INBOX_SOURCES)[number];
  /** The source message id: unique per team. */
  reference!: string;
  status!: (typeof INBOX_ITEM_STATUSES)[number];
  sender!: string | null;
  fileName!: string | null;
  mimeType!: string | null;
  size!: number | null;
  displayName!: string | null;
  note!: string | null;
  amount!: number | null;
  currency!: string | null;
  date!: string | null;
  taxAmount!: number | null;
  taxRate!: number | null;
  extractionMethod!: (typeof EXTRACTION_METHODS)[number] | null;
  transactionId!: string | null;
  workflowId!: string | null;
  deletedAt!: Date | null;
  updatedAt!: Date;
}
