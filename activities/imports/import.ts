import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ApplicationFailure, heartbeat, log } from '@temporalio/activity';
import { detectAfterArrival } from '../../shared/domain/recurring-payments/service';
import { requestLlmCategoriesAfterArrival } from '../../shared/domain/learned-categories/llm';
import { csvRows } from '../../shared/domain/transaction-imports/csv';
import { MAX_REPORTED_ERRORS, rowHasher, stageRow, type RowResult, type StagedRow } from '../../shared/domain/transaction-imports/rows';
import {
  importAccount,
  importInOneTransaction,
  importToRun,
  insertStagedRows,
  updateImport,
  type ImportToRun,
  type RowWalk,
} from '../../shared/domain/transaction-imports/run';
import { camtRows, ofxRows } from '../../shared/domain/transaction-imports/statements';
import type {
  ImportCounts,
  ImportOutcome,
  ImportTransactionsInput,
  ImportValidation,
} from '../../shared/temporal/import-transactions/contract';
import type { ActivityDeps } from '../deps';

/** How often validation reports how far it got (heartbeat and the import row). */
const PROGRESS_EVERY = 10_000;
/** Staged lines written to disk together. */
const WRITE_CHUNK = 500;

const stagedKey = (storageKey: string) => `${storageKey}.staged.ndjson`;

async function readAll(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export function importActivities({ db, storage, config, temporal }: ActivityDeps) {
  const find = async ({ teamId, importId }: ImportTransactionsInput) => {
    const found = await importToRun(db, teamId, importId);
    // The team or the account was deleted (the import with it): nothing left to import into.
    if (!found) throw ApplicationFailure.nonRetryable(`import ${importId} not found`, 'ImportNotFound');
    return found;
  };

  /** The file's rows in batches: a CSV's as the parser has them, a statement's (read whole) as one. */
  const rowsOf = async (imp: ImportToRun, stream: Readable): Promise<AsyncIterable<RowResult[]> | RowResult[][]> => {
    if (imp.format === 'csv') {
      if (!imp.mapping) throw ApplicationFailure.nonRetryable(`import ${imp.id} is CSV without a mapping`, 'ImportWithoutMapping');
      return csvRows(stream, imp.mapping, imp.mapping.delimiter ?? ',');
    }
    const text = await readAll(stream);
    return [imp.format === 'ofx' ? await ofxRows(text) : camtRows(text)];
  };

  /** The account an import goes into: gone (deleted, its imports with it), nothing to import into. */
  const accountOf = async (imp: ImportToRun) => {
    const account = await importAccount(db, imp);
    if (!account) throw ApplicationFailure.nonRetryable(`bank account ${imp.bankAccountId} not found`, 'ImportNotFound');
    return account;
  };

  /**
   * Reads the uploaded file once: counts its rows, keeps the bad ones' errors (reading on past the
   * first, to report every bad row by line), hands each good row in its staging form to `take` until
   * a row is bad, and reports progress every PROGRESS_EVERY rows. `take` returns a promise only
   * when it must be waited for (a batch to send), so a row costs no promise of its own.
   */
  const walkRows = async (
    imp: ImportToRun,
    currency: string,
    take: (row: StagedRow) => Promise<void> | undefined,
    progress: () => Record<string, number> = () => ({}),
  ): Promise<RowWalk> => {
    const { stream } = await storage.open(imp.storageKey);
    const hash = rowHasher(imp.bankAccountId);
    const walk: RowWalk = { rowsRead: 0, bad: 0, errors: [] };
    for await (const results of await rowsOf(imp, stream))
      for (const result of results) {
        walk.rowsRead++;
        if (!result.ok) {
          walk.bad++;
          if (walk.errors.length < MAX_REPORTED_ERRORS) walk.errors.push(result.error);
        } else if (!walk.bad) {
          const taking = take(stageRow(result.row, currency, hash));
          if (taking) await taking;
        }
        if (walk.rowsRead % PROGRESS_EVERY === 0) {
          heartbeat({ rowsRead: walk.rowsRead, ...progress() });
          await updateImport(db, imp.id, { rowsRead: walk.rowsRead });
        }
      }
    return walk;
  };

  return {
    /**
     * The one step of an import started since `single-pass-import`: reads, checks and inserts in one
     * pass, inside one database transaction. The database inserts a batch while the next is read and
     * checked, so a file costs the slower of the two, not their sum. At the first bad row the inserts
     * stop and the reading goes on, to report every bad row by line; then the transaction rolls back
     * and nothing of the file stays. Killed part way, nothing was committed and the retry starts
     * over; after the commit, the retry answers the stored outcome.
     */
    async importRows(input: ImportTransactionsInput): Promise<ImportOutcome> {
      const imp = await find(input);
      if (imp.status === 'failed') return { ok: false, rowsRead: imp.rowsRead, errors: imp.errors };
      if (imp.status === 'completed')
        return { ok: true, rowsRead: imp.rowsRead, created: imp.createdCount, skipped: imp.skippedCount, matched: imp.matchedCount };
      const account = await accountOf(imp);
      await updateImport(db, imp.id, { status: 'importing' });
      const outcome = await importInOneTransaction(db, imp, (take, progress) => walkRows(imp, account.currency, take, progress));
      if (outcome.ok && outcome.created > 0) {
        await detectAfterArrival(db, imp.teamId, (err) => {
          log.warn('recurring payments not detected after an import', { importId: imp.id, error: String(err) });
        });
        await requestLlmCategoriesAfterArrival({ config, temporal }, imp.teamId, (err) => {
          log.warn('language model categories not requested after an import', { importId: imp.id, error: String(err) });
        });
      }
      return outcome;
    },

    // The two steps of imports started before `single-pass-import`, kept for runs still under way.

    /**
     * Activity 1: reads the whole file and checks every row, writing the rows in their staging form
     * (hash included) to a staging file beside the upload. One bad row fails the import with every
     * bad row by line, and nothing is inserted. Repeatable: a retry writes the same staging file.
     */
    async validateImport(input: ImportTransactionsInput): Promise<ImportValidation> {
      const imp = await find(input);
      if (imp.status === 'failed') return { ok: false, rowsRead: imp.rowsRead, errors: imp.errors };
      if (imp.status === 'completed') return { ok: true, rowsRead: imp.rowsRead };
      const account = await accountOf(imp);
      await updateImport(db, imp.id, { status: 'validating' });

      const dir = await mkdtemp(path.join(os.tmpdir(), 'finops-import-'));
      try {
        const target = path.join(dir, 'staged.ndjson');
        const out = createWriteStream(target);
        let pending: string[] = [];
        const write = async (text: string) => {
          if (!out.write(text)) await once(out, 'drain');
        };
        const { rowsRead, bad, errors } = await walkRows(imp, account.currency, (row) => {
          if (pending.push(JSON.stringify(row)) < WRITE_CHUNK) return undefined;
          const chunk = pending;
          pending = [];
          return write(`${chunk.join('\n')}\n`);
        });
        if (pending.length) await write(`${pending.join('\n')}\n`);
        out.end();
        await finished(out);
        if (bad) {
          await updateImport(db, imp.id, { status: 'failed', rowsRead, errors, completedAt: new Date() });
          return { ok: false, rowsRead, errors };
        }
        const { size } = await stat(target);
        await storage.putFile(stagedKey(imp.storageKey), target, size);
        await updateImport(db, imp.id, { status: 'importing', rowsRead });
        return { ok: true, rowsRead };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    /**
     * Activity 2: every staged row inserted in one database transaction, batched; the import row's
     * counts and status are written in that transaction too. Killed part way, nothing was committed
     * and the retry starts over; killed after the commit, the retry finds the import completed and
     * answers its stored counts. Rows the account already has (by hash) are skipped by the database.
     * Each new row's transaction.created is queued in the same transaction, as a sync's are.
     */
    async insertImportedRows(input: ImportTransactionsInput): Promise<ImportCounts> {
      const imp = await find(input);
      if (imp.status === 'completed') return { created: imp.createdCount, skipped: imp.skippedCount, matched: imp.matchedCount };
      if (imp.status !== 'importing')
        throw ApplicationFailure.nonRetryable(`import ${imp.id} is ${imp.status}, not validated`, 'ImportNotValidated');
      const { stream } = await storage.open(stagedKey(imp.storageKey));
      const counts = await insertStagedRows(db, imp, stream, (inserted) => heartbeat({ inserted }));
      // The staging file has served; the upload stays as the import's file.
      await storage.remove(stagedKey(imp.storageKey)).catch(() => undefined);
      return counts;
    },
  };
}

export type ImportActivities = ReturnType<typeof importActivities>;
