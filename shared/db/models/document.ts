import { TeamScopedModel } from './base';

/** Reading a stored document: `failed` means it could not be read at all. */
export const DOCUMENT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
/** What processing decides a document is; receipts and supplier invoices go on to matching. */
export const DOCUMENT_KINDS = ['receipt', 'invoice', 'contract', 'other'] as const;

export class Document extends TeamScopedModel {
  static override tableName = 'documents';
  name!: string;
  storageKey!: string;
  mimeType!: string;
  size!: number;
  sha256!: string;
  title!: string | null;
  /** The extracted text, so a document can be found by what it says. */
  content!: string | null;
  processingStatus!: (typeof DOCUMENT_STATUSES)[number];
  /** What processing found the file to be; null until processed. */
  kind!: (typeof DOCUMENT_KINDS)[number] | null;
  processingError!: string | null;
  processedAt!: Date | null;
  deletedAt!: Date | null;
  createdBy!: string | null;
  updatedAt!: Date;
}
