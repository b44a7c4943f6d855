import { TeamScopedModel } from './base';

export const IMPORT_FORMATS = ['csv', 'ofx', 'camt053'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const IMPORT_STATUSES = ['pending', 'validating', 'importing', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** A bad row: its line in the file (for OFX and CAMT.053, the transaction's number) and what is wrong with it. */
export interface ImportError {
  line: number;
  message: string;
}

/** A statement file imported into one of the team's bank accounts (the `imports` table). */
export class TransactionImport extends TeamScopedModel {
  static override tableName = 'imports';
  static override jsonAttributes = ['mapping', 'errors'];
  bankAccountId!: string;
  format!: ImportFormat;
  fileName!: string;
  fileSize!: number;
  storageKey!: string;
  /** Where a CSV file's fields are, as the request gave them (null for OFX and CAMT.053); the domain reads it back as its mapping type. */
  mapping!: object | null;
  status!: ImportStatus;
  rowsRead!: number;
  createdCount!: number;
  skippedCount!: number;
  /** Rows that matched a transaction the account already had (synced or entered by hand): not created. */
  matchedCount!: number;
  errors!: ImportError[];
  createdBy!: string | null;
  updatedAt!: Date;
  completedAt!: Date | null;
}
