import { patched, proxyActivities, setCurrentDetails, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { ImportActivities } from '../activities/imports/import';
import {
  importProgress,
  type ImportProgress,
  type ImportStage,
  type ImportTransactionsWorkflow,
} from '../shared/temporal/import-transactions/contract';
import { Stage } from '../shared/temporal/search-attribute-keys';

// Both steps stream the whole file and heartbeat as they go: a killed worker is noticed by the
// heartbeat timeout, not after the start-to-close budget a large file needs.
const steps = {
  startToCloseTimeout: '30m',
  heartbeatTimeout: '20s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
} as const;
const { importRows, validateImport, insertImportedRows } = proxyActivities<ImportActivities>(steps);

const count = (n: number) => n.toLocaleString('en');
const rows = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;

/** Where the import is, in words, for the run's current details in the Temporal UI. */
function describe(p: ImportProgress): string {
  switch (p.stage) {
    case 'validating':
      return 'Checking the rows';
    case 'importing':
      return p.rowsRead ? `Checked ${rows(p.rowsRead)}; importing them` : 'Reading, checking and importing the rows';
    case 'completed': {
      const notes = [p.skipped ? `${count(p.skipped)} imported before` : '', p.matched ? `${count(p.matched)} already in the account` : '']
        .filter(Boolean)
        .join(', ');
      return `Imported ${count(p.created)} of ${rows(p.rowsRead)}${notes ? ` (${notes})` : ''}`;
    }
    case 'failed':
      return `Nothing imported: bad rows among the ${rows(p.rowsRead)} read`;
  }
}

/**
 * ImportTransactions (id `import:<importId>`): one step reads, checks and inserts every row of the
 * uploaded file in one database transaction (or fails with the bad rows by line, importing
 * nothing), duplicates of earlier imports refused by their row hash. The counts are stored on the
 * import row in that same transaction, so a retry after a commit reports the first attempt's
 * counts instead of "all skipped". Runs started before `single-pass-import` validate into a staging
 * file first and insert in a second step: the database then waited for the whole file to be read.
 */
export const importTransactions: ImportTransactionsWorkflow = async (input) => {
  const progress: ImportProgress = { stage: 'validating', rowsRead: 0, created: 0, skipped: 0, matched: 0 };
  const setStage = (stage: ImportStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
    setCurrentDetails(describe(progress));
  };
  setHandler(importProgress, () => progress);
  setCurrentDetails(describe(progress));

  if (patched('single-pass-import')) {
    setStage('importing');
    const outcome = await importRows(input);
    progress.rowsRead = outcome.rowsRead;
    if (!outcome.ok) {
      setStage('failed');
      return progress;
    }
    progress.created = outcome.created;
    progress.skipped = outcome.skipped;
    progress.matched = outcome.matched ?? 0;
    setStage('completed');
    return progress;
  }

  const validated = await validateImport(input);
  progress.rowsRead = validated.rowsRead;
  if (!validated.ok) {
    setStage('failed');
    return progress;
  }

  setStage('importing');
  const counts = await insertImportedRows(input);
  progress.created = counts.created;
  progress.skipped = counts.skipped;
  progress.matched = counts.matched ?? 0;
  setStage('completed');
  return progress;
};
