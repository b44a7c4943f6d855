import { TeamScopedModel } from './base';

export class TransactionAttachment extends TeamScopedModel {
  static override tableName = 'transaction_attachments';
  transactionId!: string;
  /** Unique per transaction: the same document attached twice stays one attachment. */
  documentId!: string | null;
  inboxItemId!: string | null;
  name!: string;
  mimeType!: string;
  size!: number;
  storageKey!: string;
}
