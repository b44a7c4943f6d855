import type { TemporalGateway } from '../client';
import { ImportId, Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import {
  importProgress,
  importTransactionsContract,
  importTransactionsId,
  type ImportProgress,
  type ImportTransactionsInput,
} from './contract';

/** The file and the account it goes into: `Import · statement.csv · Business Checking`. */
const summaryOf = (about: { fileName: string; accountName: string }) => summaryLine('Import', about.fileName, about.accountName);

/** Starts importing an uploaded statement once; returns the workflow id. */
export function startImportTransactions(
  temporal: TemporalGateway,
  input: ImportTransactionsInput,
  about: { fileName: string; accountName: string },
): Promise<string> {
  return startOnce(temporal, importTransactionsContract, {
    workflowId: importTransactionsId(input.importId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: ImportId, value: input.importId },
      { key: Stage, value: 'validating' },
    ],
    summary: summaryOf(about),
  });
}

export async function queryImportProgress(temporal: TemporalGateway, importId: string): Promise<ImportProgress> {
  return (await temporal.client()).workflow.getHandle(importTransactionsId(importId)).query(importProgress);
}
