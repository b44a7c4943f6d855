import type { TemporalGateway } from '../client';
import { ExportId, Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { exportTransactionsContract, exportTransactionsId, type ExportTransactionsInput } from './contract';

/** Starts the export's run once; returns the workflow id. */
export function startTransactionExport(temporal: TemporalGateway, input: ExportTransactionsInput): Promise<string> {
  return startOnce(temporal, exportTransactionsContract, {
    workflowId: exportTransactionsId(input.exportId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: ExportId, value: input.exportId },
      { key: Stage, value: 'writing' },
    ],
  });
}
