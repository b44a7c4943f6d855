import type { TemporalGateway } from '../client';
import { ExportId, Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { day, summaryLine } from '../summary';
import { exportTransactionsContract, exportTransactionsId, type ExportTransactionsInput } from './contract';

/** What goes in the ZIP and which dates: `Export · csv, xlsx · 1 Jan 2026 – 31 Mar 2026`. */
function summaryOf(about: { formats: readonly string[]; from?: string; to?: string }): string {
  const { from, to } = about;
  const dates = from && to ? `${day(from)} – ${day(to)}` : from ? `from ${day(from)}` : to ? `until ${day(to)}` : 'all dates';
  return summaryLine('Export', about.formats.join(', '), dates);
}

/** Starts the export's run once; returns the workflow id. */
export function startTransactionExport(
  temporal: TemporalGateway,
  input: ExportTransactionsInput,
  about: { formats: readonly string[]; from?: string; to?: string },
): Promise<string> {
  return startOnce(temporal, exportTransactionsContract, {
    workflowId: exportTransactionsId(input.exportId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: ExportId, value: input.exportId },
      { key: Stage, value: 'writing' },
    ],
    summary: summaryOf(about),
  });
}
