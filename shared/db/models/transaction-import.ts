import type { ImportError, ImportFormat, ImportMapping, ImportStatus } from '../../domain/imports/schema';
import { TeamScopedModel } from './base';

/** A statement file imported into one of the team's bank accounts (the `imports` table). */
export class TransactionImport extends TeamScopedModel {
  static override tableName = 'imports';
  static override jsonAttributes = ['mapping', 'errors'];
  bankAccountId!: string;
  format!: ImportFormat;
  fileName!: string;
  fileSize!: number;
  storageKey!: string;
  mapping!: ImportMapping | null;
  status!: ImportStatus;
  rowsRead!: number;
  createdCount!: number;
  skippedCount!: number;
  errors!: ImportError[];
  createdBy!: string | null;
  updatedAt!: Date;
  completedAt!: Date | null;
}
