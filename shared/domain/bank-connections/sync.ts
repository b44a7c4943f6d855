import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { BankConnection, type Transaction } from '../../db/models';
import { categoriseNew } from '../learned-categories/apply';
import { deleteWithdrawnTransactions } from '../transactions/service';
import { mergeArrivals, type Arrival } from '../transactions/reconcile';
import { emitTransactionEvents } from '../webhook-endpoints/events';

/** A provider transaction in our terms: what one sync writes of it (the team is the connection's). */
export type SyncedTransaction = Pick<
  ModelObject<Transaction>,
  | 'bankAccountId'
  | 'date'
  | 'name'
  | 'description'
  | 'method'
  | 'amount'
  | 'currency'
  | 'status'
  | 'merchantName'
  | 'counterpartyName'
  | 'providerCategory'
> & {
  providerTransactionId: string;
  /** The provider's id of the pending transaction this booked one replaces, when the provider links them. */
  pendingProviderId?: string | null;
};

/**
 * The columns a sync writes, each with its SQL type; a later sync overwrites all but the team and
 * the provider's id (and a status the team set: KEPT_STATUS), and keeps the team's notes, category
 * and tags. New rows are categorised (the team's rules, then learned categories, then the bank's
 * category) before their `transaction.created` is emitted.
 */
const COLUMNS: readonly (readonly [column: string, type: string, value: (r: SyncedTransaction) => string | number | null])[] = [
  ['bank_account_id', 'uuid', (r) => r.bankAccountId],
  ['provider_transaction_id', 'text', (r) => r.providerTransactionId],
  ['date', 'date', (r) => r.date],
  ['name', 'text', (r) => r.name],
  ['description', 'text', (r) => r.description],
  ['method', 'text', (r) => r.method],
  ['amount', 'numeric', (r) => r.amount],
  ['currency', 'text', (r) => r.currency],
  ['status', 'text', (r) => r.status],
  ['merchant_name', 'text', (r) => r.merchantName],
  ['counterparty_name', 'text', (r) => r.counterpartyName],
  ['provider_category', 'text', (r) => r.providerCategory],
];
const MERGED = COLUMNS.filter(([column]) => column !== 'provider_transaction_id');

/**
 * A re-synced row's status: the provider's (pending or posted) unless the team's rules or people gave
 * it one of their own (excluded, completed, archived), which only they take back; bank-b lists every
 * transaction again on each sync, so anything else would undo an exclusion every pass.
 */
const KEPT_STATUS = `case when transactions.status in ('excluded', 'completed', 'archived') then transactions.status else excluded.status end`;

// The bulk upsert is the sync's hot path: one statement per page, each column one array parameter
// that unnest turns back into rows. Knex's multi-row VALUES made a statement of 6,000 parameters per
// page, which Node spent its time writing and PostgreSQL parsing.
const UPSERT = `insert into transactions (team_id, ${COLUMNS.map(([column]) => column).join(', ')}, updated_at)
  select ?, u.*, now() from unnest(${COLUMNS.map(([, type]) => `?::${type}[]`).join(', ')}) as u
  on conflict (team_id, provider_transaction_id) do update set
    ${MERGED.map(([column]) => `${column} = ${column === 'status' ? KEPT_STATUS : `excluded.${column}`}`).join(', ')}, updated_at = excluded.updated_at
  returning id, provider_transaction_id as "providerTransactionId", (xmax = 0) as inserted`;

/** Idempotent: keyed by the provider's transaction id, a row synced twice is updated, never duplicated. */
async function upsertTransactions(
  db: Db,
  teamId: string,
  all: SyncedTransaction[],
): Promise<{ added: number; modified: number; addedIds: string[]; modifiedIds: string[]; arrivals: Arrival[] }> {
  // One statement may touch a row once: when a page both adds and modifies a transaction, the later version wins.
  const byProviderId = new Map(all.map((r) => [r.providerTransactionId, r]));
  const rows = [...byProviderId.values()];
  if (!rows.length) return { added: 0, modified: 0, addedIds: [], modifiedIds: [], arrivals: [] };
  // Arrays holding nulls, which pg sends as NULL elements; Knex's binding type knows no such array.
  const columns = COLUMNS.map(([, , value]) => rows.map(value)) as unknown as Knex.RawBinding[];
  const { rows: result } = await db.raw<{ rows: { id: string; providerTransactionId: string; inserted: boolean }[] }>(UPSERT, [
    teamId,
    ...columns,
  ]);
  // xmax is 0 on a row this statement inserted, and the updating transaction's id on one it updated.
  const added = result.filter((r) => r.inserted);
  const modifiedIds = result.filter((r) => !r.inserted).map((r) => r.id);
  // The statement returns each row it wrote, keyed by the provider id it was given.
  const arrivals = added.flatMap(({ id, providerTransactionId }): Arrival[] => {
    const r = byProviderId.get(providerTransactionId);
    if (!r) return [];
    return [
      {
        id,
        date: r.date,
        amount: r.amount,
        currency: r.currency,
        bankAccountId: r.bankAccountId,
        names: [r.name, r.merchantName, r.counterpartyName, r.description],
        status: r.status,
        pendingProviderId: r.pendingProviderId ?? null,
      },
    ];
  });
  return { added: added.length, modified: modifiedIds.length, addedIds: added.map((r) => r.id), modifiedIds, arrivals };
}

/** The connection a sync pass works on. */
export type ConnectionToSync = BankConnection;

/** The connection to sync; undefined once it was deleted. */
export async function connectionToSync(db: Db, connectionId: string): Promise<ConnectionToSync | undefined> {
  return BankConnection.query(db).findById(connectionId);
}

/** The institution as the provider names it now. */
export async function setInstitution(
  db: Db,
  conn: Pick<BankConnection, 'id'>,
  institution: { id: string | null; name: string },
): Promise<void> {
  await BankConnection.query(db).findById(conn.id).patch({ institutionName: institution.name, institutionId: institution.id });
}

/**
 * One page of bank-a's changes: its added and modified transactions upserted, its removed ones
 * deleted, and the cursor after it. The page and the cursor are stored together, in one transaction:
 * a crash re-fetches at most this page. bank-a reports changes (a pending transaction posting): those
 * are webhooks out, with the page.
 */
export async function storeBankAPage(
  db: Db,
  conn: Pick<BankConnection, 'id' | 'teamId'>,
  page: { rows: SyncedTransaction[]; removed: string[]; cursor: string | null },
): Promise<{ added: number; modified: number; removed: number }> {
  return db.transaction(async (trx) => {
    const counts = await upsertTransactions(trx, conn.teamId, page.rows);
    // Before the withdrawn rows go: bank-a withdraws a pending transaction in the page that books it.
    const gone = new Set(await mergeArrivals(trx, conn.teamId, counts.arrivals, { fuzzyPending: false }));
    const addedIds = counts.addedIds.filter((id) => !gone.has(id));
    await categoriseNew(trx, conn.teamId, addedIds);
    await emitTransactionEvents(trx, conn.teamId, 'transaction.created', addedIds);
    await emitTransactionEvents(trx, conn.teamId, 'transaction.updated', counts.modifiedIds);
    const removed = await deleteWithdrawnTransactions(trx, conn.teamId, page.removed);
    await BankConnection.query(trx).findById(conn.id).patch({ syncCursor: page.cursor });
    return { added: addedIds.length, modified: counts.modified, removed };
  });
}

/**
 * One page of bank-b's transactions upserted. bank-b lists every transaction again on each sync, so
 * only new ones are events; a changed one cannot be told from one re-listed unchanged.
 */
export async function storeBankBPage(db: Db, teamId: string, rows: SyncedTransaction[]): Promise<{ added: number; modified: number }> {
  const counts = await db.transaction(async (trx) => {
    const upserted = await upsertTransactions(trx, teamId, rows);
    // bank-b links no booked transaction to its pending one: the matcher pairs them.
    const gone = new Set(await mergeArrivals(trx, teamId, upserted.arrivals, { fuzzyPending: true }));
    const addedIds = upserted.addedIds.filter((id) => !gone.has(id));
    await categoriseNew(trx, teamId, addedIds);
    await emitTransactionEvents(trx, teamId, 'transaction.created', addedIds);
    return { added: addedIds.length, modified: upserted.modified };
  });
  return { added: counts.added, modified: counts.modified };
}

/** A sync pass went through: when, and no error stands any more. */
export async function markSynced(db: Db, connectionId: string): Promise<void> {
  await BankConnection.query(db).findById(connectionId).patch({ lastSyncedAt: new Date(), errorCode: null, errorMessage: null });
}
