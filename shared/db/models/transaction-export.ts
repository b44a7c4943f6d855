import { TeamScopedModel } from './base';

/**
 * What an export can hold: the rows as CSV, the rows as an Excel workbook, the files attached to them,
 * and the rows as DATEV bookings (EXTF Buchungsstapel).
 */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'receipts', 'datev'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** A transaction export request and what its ExportTransactions run made (migration 0073). */
export class TransactionExport extends TeamScopedModel {
  static override tableName = 'exports';
  static override jsonAttributes = ['filters'];
  requestedBy!: string | null;
  status!: ExportStatus;
  /** The transaction list's filters as the request gave them; the domain reads them back as its filter type. */
  filters!: object;
  formats!: ExportFormat[];
  email!: string | null;
  rowsWritten!: number;
  receiptsWritten!: number;
  receiptsMissing!: number;
  documentId!: string | null;
  error!: string | null;
  notifiedAt!: Date | null;
  emailedAt!: Date | null;
  updatedAt!: Date;
  completedAt!: Date | null;
}
