import type { DOCUMENT_KINDS } from '../../domain/documents/kinds';
import type { DOCUMENT_STATUSES } from '../../domain/inbox/schema';
import { TeamScopedModel } from './base';

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
