import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { BankConnection, type Transaction } from '../../db/models';
import {
  categoriseNew,
  loadCategoriser,
  uncategorised,
  type Categorised,
  type IncomingCategoriser,
  type IncomingRow,
} from '../learned-categories/apply';
import { mergeTransactions } from '../transactions/merge';
import { deleteWithdrawnTransactions } from '../transactions/service';
import { pairArrivals, type Arrival } from '../transactions/reconcile';
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
 * and tags. `pending` is the provider's word, kept apart from the status the team may change (a
 * pending transaction the user excluded is still pending: its booked version replaces it, and it
 * expires if never booked).
 */
const COLUMNS: readonly (readonly [column: string, type: string, value: (r: SyncedTransaction) => string | number | boolean | null])[] = [
  ['bank_account_id', 'uuid', (r) => r.bankAccountId],
  ['provider_transaction_id', 'text', (r) => r.providerTransactionId],
  ['date', 'date', (r) => r.date],
  ['name', 'text', (r) => r.name],
  ['description', 'text', (r) => r.description],
  ['method', 'text', (r) => r.method],
  ['amount', 'numeric', (r) => r.amount],
  ['currency', 'text', (r) => r.currency],
  ['merchant_name', 'text', (r) => r.merchantName],
  ['counterparty_name', 'text', (r) => r.counterpartyName],
  ['provider_category', 'text', (r) => r.providerCategory],
  ['pending', 'boolean', (r) => r.status === 'pending'],
];
const MERGED = COLUMNS.filter(([column]) => column !== 'provider_transaction_id');

/**
 * What only a new row is inserted with: its status and what the team's rules, learned categories and
 * the bank's category give it (loadCategoriser), so it is written once, categorised, before its
 * `transaction.created`. An existing row gets its provider's status here, and the update keeps its
 * category, notes and the rest.
 */
const NEW_ONLY: readonly (readonly [column: string, type: string, value: (c: Categorised) => string | boolean | null])[] = [
  ['status', 'text', (c) => c.status],
  ['category_slug', 'text', (c) => c.categorySlug],
  ['note', 'text', (c) => c.note],
  ['assigned_id', 'uuid', (c) => c.assignedId],
  ['recurring', 'boolean', (c) => c.recurring],
  ['splits', 'jsonb', (c) => (c.splits ? JSON.stringify(c.splits) : null)],
];

/**
 * Why each new row holds what it holds, and the category suggested to it: the same few values
 * across a page (one rule's why for all its rows, one learned suggestion for a merchant's), so each
 * distinct text is sent and parsed once per page (`shared`) and a row names it by its position.
 */
const SHARED: readonly (readonly [column: string, value: (c: Categorised) => string | null])[] = [
  ['field_sources', (c) => JSON.stringify(c.fieldSources)],
  ['suggested_category', (c) => (c.suggestedCategory ? JSON.stringify(c.suggestedCategory) : null)],
];

/** A page's distinct JSON texts, each with its 1-based position (a PostgreSQL array's). */
function sharedTexts(values: readonly Categorised[]): { texts: string[]; positions: (number | null)[][] } {
  const at = new Map<string, number>();
  const texts: string[] = [];
  const positions = SHARED.map(([, value]) =>
    values.map((c) => {
      const text = value(c);
      if (text === null) return null;
      let i = at.get(text);
      if (i === undefined) at.set(text, (i = texts.push(text)));
      return i;
    }),
  );
  return { texts, positions };
}

/**
 * A re-synced row's status: the provider's (pending or posted) unless the team's rules or people gave
 * it one of their own (excluded, completed, archived), which only they take back; bank-b lists every
 * transaction again on each sync, so anything else would undo an exclusion every pass.
 */
const KEPT_STATUS = `case when transactions.status in ('excluded', 'completed', 'archived') then transactions.status else excluded.status end`;

// The bulk upsert is the sync's hot path: one statement per page, each column one array parameter
// that unnest turns back into rows. Knex's multi-row VALUES made a statement of 6,000 parameters per
// page, which Node spent its time writing and PostgreSQL parsing. The ids are chosen here, so a row's
// rules and learned category, worked out before, can name it.
const UNNESTED = [...COLUMNS, ...NEW_ONLY].map(([column]) => column);
const UPSERT = `insert into transactions (team_id, id, ${[...UNNESTED, ...SHARED.map(([column]) => column)].join(', ')}, updated_at)
  select ?, u.id, ${[...UNNESTED.map((column) => `u.${column}`), ...SHARED.map(([column]) => `shared.texts[u.${column}]`)].join(', ')}, now()
    from unnest(?::uuid[], ${[...COLUMNS, ...NEW_ONLY].map(([, type]) => `?::${type}[]`).join(', ')}, ${SHARED.map(() => '?::int[]').join(', ')})
         as u(id, ${[...UNNESTED, ...SHARED.map(([column]) => column)].join(', ')}),
         (select ?::jsonb[] as texts) shared
  on conflict (team_id, provider_transaction_id) do update set
    ${MERGED.map(([column]) => `${column} = excluded.${column}`).join(', ')}, status = ${KEPT_STATUS}, updated_at = excluded.updated_at
  returning id, provider_transaction_id as "providerTransactionId", (xmax = 0) as inserted`;

/** Loads the team's categoriser when a page first has a new row; a sync pass passes one for all its pages. */
export type CategoriserSource = () => Promise<IncomingCategoriser>;

/**
 * Rows the provider calls new, categorised before their page is stored, each with the id it will be
 * inserted under (categoriseAhead). Keyed by the provider's id; the row is the very object that was
 * categorised, so a page that later names the same transaction again (added, then modified) has that
 * version categorised when stored instead.
 */
export type CategorisedAhead = ReadonlyMap<string, { row: SyncedTransaction; id: string; categorised: Categorised }>;

function incomingRow(r: SyncedTransaction, id: string): IncomingRow {
  return {
    id,
    name: r.name,
    description: r.description,
    counterpartyName: r.counterpartyName,
    merchantName: r.merchantName,
    providerCategory: r.providerCategory,
    amount: r.amount,
    currency: r.currency,
    bankAccountId: r.bankAccountId,
    date: r.date,
    status: r.status,
  };
}

/**
 * Categorises a page's new rows as soon as the page arrives, while the page before it is still being
 * written, so the categorising (Node's work) overlaps the database's instead of following it. Pages
 * must be passed in the order they are stored: the categoriser learns from each page's rule-categorised
 * rows for the next. A row found known when stored (a page fetched again after a crash) is not inserted,
 * and its categories are dropped. Undefined when categorising fails: the page then categorises when
 * stored, where the error surfaces in the page's own transaction (and a page whose sync stops before
 * it is stored leaves no rejected promise behind).
 */
export async function categoriseAhead(
  rows: readonly SyncedTransaction[],
  categoriser: CategoriserSource,
): Promise<CategorisedAhead | undefined> {
  if (!rows.length) return undefined;
  try {
    const loaded = await categoriser();
    const incoming = rows.map((r) => incomingRow(r, randomUUID()));
    const categorised = loaded.categorise(incoming);
    return new Map(
      rows.map((row, i) => {
        const { id } = incoming[i];
        return [row.providerTransactionId, { row, id, categorised: categorised.get(id) ?? uncategorised(row.status) }];
      }),
    );
  } catch {
    return undefined;
  }
}

interface Upserted {
  added: number;
  modified: number;
  addedIds: string[];
  modifiedIds: string[];
  arrivals: Arrival[];
  /** What each new row was inserted with, by its id. */
  categorised: Map<string, Categorised>;
}

/**
 * Idempotent: keyed by the provider's transaction id, a row synced twice is updated, never duplicated.
 * The rows the team does not have yet are categorised first and inserted so. A connection's sync
 * passes run one at a time (one workflow per connection), so a row found missing is not inserted by
 * another writer meanwhile.
 */
async function upsertTransactions(
  trx: Knex.Transaction,
  teamId: string,
  all: SyncedTransaction[],
  categoriser: CategoriserSource,
  ahead?: CategorisedAhead,
): Promise<Upserted> {
  // One statement may touch a row once: when a page both adds and modifies a transaction, the later version wins.
  const byProviderId = new Map(all.map((r) => [r.providerTransactionId, r]));
  const rows = [...byProviderId.values()];
  if (!rows.length) return { added: 0, modified: 0, addedIds: [], modifiedIds: [], arrivals: [], categorised: new Map() };
  // One probe of the (team, provider id) key per row: as `in (…)`, the planner read the team's rows
  // whole once they outgrew the table's statistics (a first large sync), on every page.
  const { rows: found } = await trx.raw<{ rows: { id: string }[] }>(
    `select u.id from unnest(?::text[]) as u(id)
       cross join lateral (select 1 from transactions t where t.team_id = ? and t.provider_transaction_id = u.id limit 1) known`,
    [rows.map((r) => r.providerTransactionId), teamId],
  );
  const known = new Set(found.map((r) => r.id));
  const early = rows.map((r) => {
    const entry = ahead?.get(r.providerTransactionId);
    return entry?.row === r && !known.has(r.providerTransactionId) ? entry : undefined;
  });
  const ids = rows.map((_, i) => early[i]?.id ?? randomUUID());
  const fresh = rows.flatMap((r, i): IncomingRow[] => (known.has(r.providerTransactionId) || early[i] ? [] : [incomingRow(r, ids[i])]));
  const categorised = fresh.length ? (await categoriser()).categorise(fresh) : new Map<string, Categorised>();
  early.forEach((entry, i) => entry && categorised.set(ids[i], entry.categorised));
  const values = rows.map((r, i) => categorised.get(ids[i]) ?? uncategorised(r.status));
  // Arrays holding nulls, which pg sends as NULL elements; Knex's binding type knows no such array.
  const shared = sharedTexts(values);
  const columns = [
    ids,
    ...COLUMNS.map(([, , value]) => rows.map(value)),
    ...NEW_ONLY.map(([, , value]) => values.map(value)),
    ...shared.positions,
    shared.texts,
  ] as unknown as Knex.RawBinding[];
  const { rows: result } = await trx.raw<{ rows: { id: string; providerTransactionId: string; inserted: boolean }[] }>(UPSERT, [
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
  return { added: added.length, modified: modifiedIds.length, addedIds: added.map((r) => r.id), modifiedIds, arrivals, categorised };
}

/**
 * The new rows, merged with the rows they replace (mergeArrivals), their tags added; returns the new
 * rows that stay. A new row that takes another over is first put back as the bank sent it, then
 * merged, then categorised as categoriseNew does after any insert: the merge carries what people
 * and rules gave the row it replaces, and the rules then see the merged row (its tags, attachments,
 * fields set by hand), as they did when all categorising came after the insert.
 */
async function settleArrivals(
  trx: Knex.Transaction,
  teamId: string,
  upserted: Upserted,
  opts: { fuzzyPending: boolean },
): Promise<string[]> {
  const pairs = await pairArrivals(trx, teamId, upserted.arrivals, opts);
  const survivors = new Set(pairs.map((p) => p.survivorId));
  const statusOf = new Map(upserted.arrivals.map((a) => [a.id, a.status]));
  const undo = [...survivors].filter((id) => {
    const c = upserted.categorised.get(id);
    return c && (c.tags.length || Object.keys(c.fieldSources).length || c.suggestedCategory || c.status !== statusOf.get(id));
  });
  if (undo.length) {
    await trx.raw(
      `update transactions t set category_slug = null, note = null, assigned_id = null, recurring = false, splits = null,
         field_sources = '{}', suggested_category = null, status = u.status
       from unnest(?::uuid[], ?::text[]) as u(id, status) where t.team_id = ? and t.id = u.id`,
      [undo, undo.map((id) => statusOf.get(id) ?? 'posted'), teamId],
    );
  }
  const tags = upserted.addedIds.flatMap((id) =>
    survivors.has(id) ? [] : (upserted.categorised.get(id)?.tags ?? []).map((tag) => ({ t: id, g: tag })),
  );
  if (tags.length) {
    await trx.raw(
      `insert into transaction_tags (team_id, transaction_id, tag_id)
       select ?, x.t, x.g from jsonb_to_recordset(?::jsonb) as x(t uuid, g uuid) on conflict (transaction_id, tag_id) do nothing`,
      [teamId, JSON.stringify(tags)],
    );
  }
  const gone = new Set(await mergeTransactions(trx, teamId, pairs));
  await categoriseNew(
    trx,
    teamId,
    [...survivors].filter((id) => !gone.has(id)),
  );
  return upserted.addedIds.filter((id) => !gone.has(id));
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
  page: { rows: SyncedTransaction[]; removed: string[]; cursor: string | null; ahead?: CategorisedAhead },
  categoriser: CategoriserSource = () => loadCategoriser(db, conn.teamId),
): Promise<{ added: number; modified: number; removed: number }> {
  return db.transaction(async (trx) => {
    const counts = await upsertTransactions(trx, conn.teamId, page.rows, categoriser, page.ahead);
    // Before the withdrawn rows go: bank-a withdraws a pending transaction in the page that books it.
    const addedIds = await settleArrivals(trx, conn.teamId, counts, { fuzzyPending: false });
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
export async function storeBankBPage(
  db: Db,
  teamId: string,
  rows: SyncedTransaction[],
  categoriser: CategoriserSource = () => loadCategoriser(db, teamId),
): Promise<{ added: number; modified: number }> {
  const counts = await db.transaction(async (trx) => {
    const upserted = await upsertTransactions(trx, teamId, rows, categoriser);
    // bank-b links no booked transaction to its pending one: the matcher pairs them.
    const addedIds = await settleArrivals(trx, teamId, upserted, { fuzzyPending: true });
    await emitTransactionEvents(trx, teamId, 'transaction.created', addedIds);
    return { added: addedIds.length, modified: upserted.modified };
  });
  return { added: counts.added, modified: counts.modified };
}

/**
 * A sync pass went through: when. The error stays: it is the disconnection's (markDisconnected sets
 * it with the status, markReconnected clears both), and a pass that ends after the bank reported a
 * broken login must not leave a connection disconnected without its reason.
 */
export async function markSynced(db: Db, connectionId: string): Promise<void> {
  await BankConnection.query(db).findById(connectionId).patch({ lastSyncedAt: new Date() });
}
