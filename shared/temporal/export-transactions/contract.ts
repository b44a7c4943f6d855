import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface ExportTransactionsInput {
  exportId: string;
  teamId: string;
}

export type ExportTransactionsStage = 'writing' | 'announcing' | 'emailing' | 'completed' | 'failed';

/** What the file-writing step made. */
export interface WrittenExport {
  documentId: string;
  rowsWritten: number;
  receiptsWritten: number;
  /** Attachments whose file is no longer in storage (deleted since): listed in the CSV, absent from the ZIP. */
  receiptsMissing: number;
}

export interface ExportTransactionsProgress {
  exportId: string;
  stage: ExportTransactionsStage;
  /** Set once the file is stored; rows written while the file is being written are on the export row (GET /transactions/exports/:id). */
  result: WrittenExport | null;
  notificationId: string | null;
  /** 'sent', 'skipped' (no address asked for, or sent by an earlier attempt), or null before that step. */
  email: 'sent' | 'skipped' | null;
  error: string | null;
}

export const exportTransactionsProgress = defineQuery<ExportTransactionsProgress>('exportTransactionsProgress');

export type ExportTransactionsWorkflow = (input: ExportTransactionsInput) => Promise<ExportTransactionsProgress>;

export const exportTransactionsContract = workflowContract<ExportTransactionsWorkflow>('exportTransactions');

/** One run per export request: asking to start it again finds the same run. */
export const exportTransactionsId = (exportId: string) => `export:${exportId}`;
