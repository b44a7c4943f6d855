import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

/** A bad row: its line in the file (for OFX and CAMT.053, the transaction's number) and what is wrong with it. */
export interface ImportError {
  line: number;
  message: string;
}

export interface ImportTransactionsInput {
  importId: string;
  teamId: string;
}

export type ImportStage = 'validating' | 'importing' | 'completed' | 'failed';

export interface ImportProgress {
  stage: ImportStage;
  rowsRead: number;
  created: number;
  /** Rows the account had from an earlier import of them: the database refused them as duplicates. */
  skipped: number;
  /** Rows that matched a transaction the account already had from a sync or by hand: not created. */
  matched: number;
}

/** Activity 1: every row read and checked into the staging file, or the bad rows by line (nothing imported). */
export type ImportValidation = { ok: true; rowsRead: number } | { ok: false; rowsRead: number; errors: ImportError[] };

/** The single pass: every row read, checked and inserted, or the bad rows by line (nothing imported). */
// `matched` is absent from the results of runs recorded before imports matched existing transactions.
export type ImportOutcome =
  | { ok: true; rowsRead: number; created: number; skipped: number; matched?: number }
  | { ok: false; rowsRead: number; errors: ImportError[] };

export interface ImportCounts {
  created: number;
  skipped: number;
  matched?: number;
}

export const importProgress = defineQuery<ImportProgress>('importProgress');

export type ImportTransactionsWorkflow = (input: ImportTransactionsInput) => Promise<ImportProgress>;

export const importTransactionsContract = workflowContract<ImportTransactionsWorkflow>('importTransactions');

/** One run per import: a retried start finds the run the first one started. */
export const importTransactionsId = (importId: string) => `import:${importId}`;
