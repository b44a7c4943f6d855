import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { Knex } from 'knex';
import { textArrayLiteral } from '../../db/array-literal';
import type { Db } from '../../db/knex';
import { BankAccount, TransactionImport } from '../../db/models';
import type { ImportCounts, ImportOutcome } from '../../temporal/import-transactions/contract';
import { hasEnabledRules } from '../transaction-rules/apply';
import { categoriseNew, hasCategoryHistory } from '../learned-categories/apply';
import { emitTransactionEvents, insertTransactionsWithEvents } from '../webhook-endpoints/events';
import { ImportOverlap } from './overlap';
import type { StagedRow } from './rows';
import type { ImportError, ImportMapping } from './schema';

/** Rows per insert statement: large enough that 100,000 rows are 20 round trips, small enough for the parameter arrays. */
const INSERT_BATCH = 5000;

/** An import as its run reads it: the row, with its CSV mapping in its type. */
export type ImportToRun = TransactionImport & { mapping: ImportMapping | null };

/**
 * The import to run; undefined when the team or the account was deleted (the import with it). The
 * run is what reads the jsonb `mapping`, so its type is given here: startImport is the column's only
 * writer and writes a mapping csvMappingSchema accepted (the delimiter filled in), so the value is
 * that type. It is not parsed again, since a schema tightened later would then fail imports it had
 * already accepted.
 */
export async function importToRun(db: Db, teamId: string, importId: string): Promise<ImportToRun | undefined> {
  return (await TransactionImport.query(db).findOne({ teamId, id: importId })) as ImportToRun | undefined;
}

/** The account an import goes into; undefined once it was deleted (its imports with it). */
export async function importAccount(db: Db, imp: Pick<TransactionImport, 'teamId' | 'bankAccountId'>): Promise<BankAccount | undefined> {
  return BankAccount.query(db).findOne({ teamId: imp.teamId, id: imp.bankAccountId });
}

/** The import's status, counts or progress, as its run gets on. */
export async function updateImport(db: Db | Knex.Transaction, id: string, fields: Partial<TransactionImport>): Promise<void> {
  await TransactionImport.query(db)
    .findById(id)
    .patch({ ...fields, updatedAt: new Date() });
}

/** A batch as the insert's parameters: each column one array literal, which unnest turns back into rows. */
interface StagedBatch {
  size: number;
  columns: string[];
}

const STAGED_COLUMNS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * Staged text is never empty (cleanText makes it null), so an empty string carries null through the
 * text arrays. Written by the import while the batch before is in the database, so that the database
 * waits for the network between two batches, not for this (unless the account has transactions to
 * match the rows against: then after the batch's rows were matched).
 */
const stagedBatch = (rows: StagedRow[]): StagedBatch => ({
  size: rows.length,
  columns: STAGED_COLUMNS.map((i) => textArrayLiteral(rows.map((r) => r[i] ?? ''))),
});

const INSERT_SQL = `insert into transactions (team_id, bank_account_id, date, amount, currency, name, description, counterparty_name, method, status, manual, import_hash)
     select ?::uuid, ?::uuid, u.date, u.amount, u.currency, u.name, nullif(u.reference, ''), nullif(u.counterparty, ''), 'other', 'posted', true, u.hash
       from unnest(?::date[], ?::numeric[], ?::text[], ?::text[], ?::text[], ?::text[], ?::uuid[])
         as u(date, amount, currency, name, reference, counterparty, hash)
     on conflict (team_id, import_hash) do nothing
     returning *`;

/**
 * One statement: the staged rows into transactions, a row whose hash the team has already skipped,
 * and each inserted row's transaction.created in the team's event log (and to any endpoint that
 * listens), in the import's transaction: they exist exactly when the rows do, and a re-import
 * (nothing inserted) emits none. The ids never travel back: 5,000 a batch. A team with rules or a
 * categorised history takes three steps instead: the insert returns the new ids, they are
 * categorised (categoriseNew), and the events are emitted after, carrying the categories. Returns
 * how many were inserted.
 */
async function insertBatch(
  trx: Knex.Transaction,
  teamId: string,
  bankAccountId: string,
  batch: StagedBatch,
  categorising: boolean,
): Promise<number> {
  const bindings = [teamId, bankAccountId, ...batch.columns];
  if (!categorising) return insertTransactionsWithEvents(trx, teamId, { sql: INSERT_SQL, bindings });
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(`with inserted as (${INSERT_SQL}) select id from inserted`, bindings);
  const ids = rows.map((r) => r.id);
  await categoriseNew(trx, teamId, ids);
  await emitTransactionEvents(trx, teamId, 'transaction.created', ids);
  return ids.length;
}

/**
 * The rows of an account that has transactions from a sync or entered by hand are matched against
 * them first (ImportOverlap): a row the account already has is not created. An account that only
 * ever had imports skips the look-up.
 */
async function overlapOf(trx: Knex.Transaction, imp: Pick<TransactionImport, 'teamId' | 'bankAccountId'>): Promise<ImportOverlap | null> {
  const other = await trx('transactions')
    .where({ teamId: imp.teamId, bankAccountId: imp.bankAccountId })
    .whereNull('importHash')
    .first<{ id: string } | undefined>('id');
  return other ? new ImportOverlap(imp.teamId, imp.bankAccountId) : null;
}

/** The batch as the insert's parameters, without the rows the account already has. */
const stagedNew = async (trx: Knex.Transaction, overlap: ImportOverlap | null, rows: StagedRow[]): Promise<StagedBatch> =>
  stagedBatch(overlap ? await overlap.keepNew(trx, rows) : rows);

/** What reading a file came to: rows read, and the bad ones (their errors, the first MAX_REPORTED_ERRORS). */
export interface RowWalk {
  rowsRead: number;
  bad: number;
  errors: ImportError[];
}

/**
 * Reads the file once, handing each good row in its staging form to `take` (which returns a promise
 * only when it must be waited for: a batch to send) until a row is bad, and adds `progress()` (the
 * rows inserted so far) to what it reports of its own progress.
 */
export type ImportWalk = (take: (row: StagedRow) => Promise<void> | undefined, progress: () => Record<string, number>) => Promise<RowWalk>;

/**
 * An import's rows read, checked and inserted in one pass, inside one database transaction. The
 * database inserts a batch while the next is read and checked, so a file costs the slower of the
 * two, not their sum. At the first bad row the inserts stop and the reading goes on, to report every
 * bad row by line; then the transaction rolls back, nothing of the file stays, and the import is
 * marked failed. Otherwise the import is completed with its counts in the same transaction.
 */
export async function importInOneTransaction(
  db: Db,
  imp: Pick<TransactionImport, 'id' | 'teamId' | 'bankAccountId'>,
  walkRows: ImportWalk,
): Promise<ImportOutcome> {
  const rolledBack = new Error('the file has bad rows');
  let walk: RowWalk | undefined;
  try {
    return await db.transaction(async (trx) => {
      const categorising = await categorisesImports(trx, imp.teamId);
      const overlap = await overlapOf(trx, imp);
      let created = 0;
      let inserted = 0;
      let batch: StagedRow[] = [];
      let inFlight: Promise<unknown> = Promise.resolve();
      // One batch in the database at a time: the next is read and written out meanwhile, and waits for it.
      const send = async () => {
        const rows = batch;
        const next = overlap ? null : stagedBatch(rows);
        batch = [];
        await inFlight;
        inFlight = (next ? Promise.resolve(next) : stagedNew(trx, overlap, rows))
          .then((staged) => insertBatch(trx, imp.teamId, imp.bankAccountId, staged, categorising))
          .then((n) => {
            created += n;
            inserted += rows.length;
          });
        // Its failure is awaited with the next batch; until then it must not count as unhandled.
        inFlight.catch(() => undefined);
      };
      walk = await walkRows(
        (row) => (batch.push(row) >= INSERT_BATCH ? send() : undefined),
        () => ({ inserted }),
      );
      if (walk.bad) {
        await inFlight.catch(() => undefined);
        throw rolledBack;
      }
      if (batch.length) await send();
      await inFlight;
      const { rowsRead } = walk;
      const matched = overlap?.matched ?? 0;
      const outcome = { ok: true as const, rowsRead, created, skipped: rowsRead - created - matched, matched };
      await updateImport(trx, imp.id, {
        status: 'completed',
        rowsRead,
        createdCount: outcome.created,
        skippedCount: outcome.skipped,
        matchedCount: matched,
        completedAt: new Date(),
      });
      return outcome;
    });
  } catch (err) {
    if (err !== rolledBack || !walk) throw err;
    const { rowsRead, errors } = walk;
    await updateImport(db, imp.id, { status: 'failed', rowsRead, errors, completedAt: new Date() });
    return { ok: false, rowsRead, errors };
  }
}

/**
 * Every staged row (ndjson lines) inserted in one database transaction, batched; the import's
 * counts and status are written in that transaction too, and each new row's transaction.created is
 * queued in it, as a sync's are. `onBatch` hears how many rows were inserted so far.
 */
export async function insertStagedRows(
  db: Db,
  imp: Pick<TransactionImport, 'id' | 'teamId' | 'bankAccountId'>,
  staged: Readable,
  onBatch: (inserted: number) => void,
): Promise<ImportCounts> {
  return db.transaction(async (trx) => {
    const categorising = await categorisesImports(trx, imp.teamId);
    const overlap = await overlapOf(trx, imp);
    let created = 0;
    let total = 0;
    let batch: StagedRow[] = [];
    const flush = async () => {
      created += await insertBatch(trx, imp.teamId, imp.bankAccountId, await stagedNew(trx, overlap, batch), categorising);
      total += batch.length;
      batch = [];
      onBatch(total);
    };
    for await (const line of createInterface({ input: staged, crlfDelay: Infinity })) {
      if (!line) continue;
      batch.push(JSON.parse(line) as StagedRow);
      if (batch.length >= INSERT_BATCH) await flush();
    }
    if (batch.length) await flush();
    const matched = overlap?.matched ?? 0;
    const result = { created, skipped: total - created - matched, matched };
    await updateImport(trx, imp.id, {
      status: 'completed',
      createdCount: result.created,
      skippedCount: result.skipped,
      matchedCount: matched,
      completedAt: new Date(),
    });
    return result;
  });
}

/** Whether new rows need categorising (rules, or a history to learn from); without, an import takes the one-statement path. */
async function categorisesImports(trx: Knex.Transaction, teamId: string): Promise<boolean> {
  return (await hasEnabledRules(trx, teamId)) || (await hasCategoryHistory(trx, teamId));
}
