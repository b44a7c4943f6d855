import type { ExportFormat, ExportStatus } from '../../domain/transaction-exports/schema';
import type { TransactionFilterBody } from '../../domain/transactions/schema';
import { TeamScopedModel } from './base';

/** A transaction export request and what its ExportTransactions run made (migration 0073). */
export class TransactionExport extends TeamScopedModel {
  static override tableName = 'exports';
  static override jsonAttributes = ['filters'];
  requestedBy!: string | null;
  status!: ExportStatus;
  filters!: TransactionFilterBody;
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
