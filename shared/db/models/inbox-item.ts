import { TeamScopedModel } from './base';

export class InboxItem extends TeamScopedModel {
  static override tableName = 'inbox_items';
  documentId!: string | null;
  source!: 'messaging' | 'email' | 'upload';
  reference!: string;
  status!: 'new' | 'processing' | 'analyzing' | 'pending' | 'suggested_match' | 'no_match' | 'done' | 'archived' | 'deleted';
  sender!: string | null;
  fileName!: string | null;
  mimeType!: string | null;
  size!: number | null;
  displayName!: string | null;
  amount!: number | null;
  currency!: string | null;
  date!: string | null;
  taxAmount!: number | null;
  taxRate!: number | null;
  transactionId!: string | null;
  workflowId!: string | null;
  deletedAt!: string | null;
  updatedAt!: string;
}
