import { TeamScopedModel } from './base';

export class TransactionAttachment extends TeamScopedModel {
  static override tableName = 'transaction_attachments';
  transactionId!: string;
  documentId!: string | null;
  inboxItemId!: string | null;
  name!: string;
  mimeType!: string;
  size!: number;
  storageKey!: string;
}
