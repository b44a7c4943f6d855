import { TeamScopedModel } from './base';

export class Document extends TeamScopedModel {
  static override tableName = 'documents';
  name!: string;
  storageKey!: string;
  mimeType!: string;
  size!: number;
  sha256!: string;
  title!: string | null;
  processingStatus!: 'pending' | 'processing' | 'completed' | 'failed';
  deletedAt!: string | null;
  createdBy!: string | null;
  updatedAt!: string;
}
