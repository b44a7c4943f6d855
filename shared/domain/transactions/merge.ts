import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { MergeReason } from '../../db/models';
import { conflict, notFound } from '../../errors';
import { emitTransactionEvents } from '../webhook-endpoints/events';
import type { TransactionDetailDto, TransactionDto } from './schema';
import { deleteAnnounced, getTransaction } from './service';

/**
 * Merging two transactions into one, and undoing it. The survivor takes over what people and rules
 * gave the merged-away row (category, note, tags, assignee, flags, tax, attachments, receipt and
 * invoice links); the merged-away row is deleted (announced as `transaction.deleted`), and its exact
 * row, its tags and everything the merge moved or changed on the survivor are kept in
 * `transaction_merges`, so an unmerge puts both back as they were.
 */

/** Rows of other tables that point at a transaction, and so move to the survivor. */
const LINKS = [
  { key: 'attachments', table: 'transaction_attachments', unique: null },
  { key: 'inboxItems', table: 'inbox_items', unique: null },
  { key: 'matchSuggestions', table: 'match_suggestions', unique: null },
  // One transaction pays one invoice: a survivor that already pays one keeps it, and the other stays with the merged row.
  { key: 'invoicePayments', table: 'invoice_payments', unique: null, onePerTransaction: true },
  { key: 'invoicePaymentSuggestions', table: 'invoice_payment_suggestions', unique: 'invoice_id' },
] as const;
type LinkKey = (typeof LINKS)[number]['key'];

/**
 * The columns a merge may carry over, with the API's field name when a rule or a user can set it
 * (`manual_fields`, `field_sources` speak those names). Status is carried only when set by hand
 * (an excluded or archived row stays so); a bank's status is the survivor's own. A split is carried
 * only onto the same amount: its parts must sum to the whole, and a changed amount drops a split
 * anywhere (migration 0098's trigger).
 */
const CARRIED = [
  { column: 'category_slug', field: 'categorySlug' },
  { column: 'note', field: 'note' },
  { column: 'assigned_id', field: 'assignedId' },
  { column: 'recurring', field: 'recurring' },
  { column: 'status', field: 'status' },
  { column: 'splits', field: 'splits' },
  { column: 'frequency', field: null },
  { column: 'internal', field: null },
  { column: 'tax_amount', field: null },
  { column: 'tax_rate', field: null },
  { column: 'tax_type', field: null },
] as const;

/** A transaction's row as PostgreSQL keeps it (snake_case keys), less its generated columns. */
type StoredRow = Record<string, unknown> & {
  id: string;
  manual_fields: string[];
  field_sources: Record<string, unknown>;
};

/** What a merge keeps to undo itself. */
export interface MergeSnapshot {
  /** The merged-away row, exactly as it was. */
  row: StoredRow;
  /** Its tags (they go with the row and come back with it). */
  tags: string[];
  /** Rows of other tables moved from it to the survivor, by table. */
  moved: Record<LinkKey, string[]>;
  /** Tags the survivor got from it (only those it did not have). */
  addedTags: string[];
  /** The survivor's columns the merge changed: as they were, and as the merge set them. */
  survivorBefore: Record<string, unknown>;
  survivorAfter: Record<string, unknown>;
}

const ROW_SQL = `select (to_jsonb(t) - 'search_vector')::text as row from transactions t where t.team_id = ? and t.id = any(?::uuid[]) for update`;

async function storedRows(trx: Knex.Transaction, teamId: string, ids: readonly string[]): Promise<Map<string, StoredRow>> {
  const { rows } = await trx.raw<{ rows: { row: string }[] }>(ROW_SQL, [teamId, [...ids]]);
  return new Map(rows.map((r) => JSON.parse(r.row) as StoredRow).map((r) => [r.id, r]));
}

const isSet = (v: unknown) => v !== null && v !== undefined && v !== false;

const sameWhole = (a: StoredRow, b: StoredRow) => Number(a.amount) === Number(b.amount) && a.currency === b.currency;

/**
 * What the survivor takes over: a field the survivor's user set stays; one the merged row's user
 * set comes over; otherwise a value the merged row has and the survivor lacks comes over.
 */
function carriedOver(survivor: StoredRow, merged: StoredRow) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const manual = new Set(survivor.manual_fields);
  const sources = { ...survivor.field_sources };
  for (const { column, field } of CARRIED) {
    const byHandThere = field !== null && merged.manual_fields.includes(field);
    if (field !== null && manual.has(field)) continue;
    if (column === 'splits' && !sameWhole(survivor, merged)) continue;
    const take = column === 'status' ? byHandThere : byHandThere || (isSet(merged[column]) && !isSet(survivor[column]));
    if (!take || merged[column] === survivor[column]) continue;
    before[column] = survivor[column];
    after[column] = merged[column];
    if (field !== null) {
      if (byHandThere) manual.add(field);
      if (merged.field_sources[field] !== undefined) sources[field] = merged.field_sources[field];
      else sources[field] = undefined;
    }
  }
  if (merged.manual_fields.includes('tags') && !manual.has('tags')) {
    manual.add('tags');
    if (merged.field_sources.tags !== undefined) sources.tags = merged.field_sources.tags;
  }
  const manualFields = [...manual].sort();
  if (manualFields.join() !== [...survivor.manual_fields].sort().join()) {
    before.manual_fields = survivor.manual_fields;
    after.manual_fields = manualFields;
  }
  if (JSON.stringify(sources) !== JSON.stringify(survivor.field_sources)) {
    before.field_sources = survivor.field_sources;
    after.field_sources = sources;
  }
  return { before, after };
}

/** Sets columns of one transaction from a column → value object (json columns as JSON). */
async function setColumns(trx: Knex.Transaction, teamId: string, id: string, values: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(values);
  if (!columns.length) return;
  await trx.raw(
    `update transactions t set ${columns.map(() => '?? = r.??').join(', ')}, updated_at = now()
       from jsonb_populate_record(null::transactions, ?::jsonb) as r
      where t.team_id = ? and t.id = ?`,
    [...columns.flatMap((c) => [c, c]), JSON.stringify(values), teamId, id],
  );
}

export interface MergePair {
  survivorId: string;
  mergedId: string;
  reason: MergeReason;
}

/**
 * Merges each pair in the caller's transaction: the survivor takes over the merged row's
 * annotations and links, the merged row is deleted (announced) and the merge recorded. A pair whose
 * rows are gone or the same is skipped. Returns the ids merged away.
 */
export async function mergeTransactions(trx: Knex.Transaction, teamId: string, pairs: readonly MergePair[]): Promise<string[]> {
  if (!pairs.length) return [];
  const rows = await storedRows(trx, teamId, [...new Set(pairs.flatMap((p) => [p.survivorId, p.mergedId]))]);
  const mergedAway: string[] = [];
  for (const pair of pairs) {
    const survivor = rows.get(pair.survivorId);
    const merged = rows.get(pair.mergedId);
    if (!survivor || !merged || survivor.id === merged.id || mergedAway.includes(merged.id)) continue;
    const { before, after } = carriedOver(survivor, merged);
    await setColumns(trx, teamId, survivor.id, after);
    Object.assign(survivor, after);

    const tags = (await trx('transaction_tags').where({ teamId, transactionId: merged.id }).select<{ tagId: string }[]>('tagId')).map(
      (t) => t.tagId,
    );
    const addedTags = tags.length
      ? (
          await trx.raw<{ rows: { tagId: string }[] }>(
            `insert into transaction_tags (team_id, transaction_id, tag_id) select ?, ?, unnest(?::uuid[])
             on conflict (transaction_id, tag_id) do nothing returning tag_id as "tagId"`,
            [teamId, survivor.id, tags],
          )
        ).rows.map((r) => r.tagId)
      : [];
    const moved = {} as Record<LinkKey, string[]>;
    for (const link of LINKS) moved[link.key] = await moveLinks(trx, teamId, link, merged.id, survivor.id);

    const snapshot: MergeSnapshot = { row: merged, tags, moved, addedTags, survivorBefore: before, survivorAfter: after };
    await trx.raw(
      `insert into transaction_merges (team_id, survivor_id, merged_id, reason, snapshot) values (?, ?, ?, ?, ?::jsonb)
       on conflict (team_id, merged_id) do update set survivor_id = excluded.survivor_id, reason = excluded.reason,
         snapshot = excluded.snapshot, created_at = now()`,
      [teamId, survivor.id, merged.id, pair.reason, JSON.stringify(snapshot)],
    );
    mergedAway.push(merged.id);
  }
  await deleteAnnounced(trx, teamId, mergedAway);
  return mergedAway;
}

/** Points one table's rows at the survivor instead of the merged row; returns the ids moved. */
async function moveLinks(trx: Knex.Transaction, teamId: string, link: (typeof LINKS)[number], from: string, to: string): Promise<string[]> {
  const clash =
    'onePerTransaction' in link
      ? `and not exists (select 1 from ${link.table} o where o.transaction_id = ?)`
      : link.unique
        ? `and not exists (select 1 from ${link.table} o where o.transaction_id = ? and o.${link.unique} = x.${link.unique})`
        : '';
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `update ${link.table} x set transaction_id = ? where x.team_id = ? and x.transaction_id = ? ${clash} returning x.id`,
    [to, teamId, from, ...(clash ? [to] : [])],
  );
  return rows.map((r) => r.id);
}

/** A transaction's merges, newest first: what `GET /transactions/{id}` shows as `mergedFrom`. */
export async function mergesOf(
  db: Db,
  teamId: string,
  survivorId: string,
): Promise<{ id: string; reason: MergeReason; mergedAt: string; date: string; name: string; amount: number }[]> {
  const { rows } = await db.raw<{
    rows: { id: string; reason: MergeReason; mergedAt: string; date: string; name: string; amount: string }[];
  }>(
    `select m.merged_id as id, m.reason, to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "mergedAt",
            m.snapshot -> 'row' ->> 'date' as date, m.snapshot -> 'row' ->> 'name' as name, m.snapshot -> 'row' ->> 'amount' as amount
       from transaction_merges m where m.team_id = ? and m.survivor_id = ? order by m.created_at desc, m.merged_id`,
    [teamId, survivorId],
  );
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

/**
 * Undoes a merge into `survivorId`: the one of `mergedId`, or the latest. The merged row comes back
 * with its id, fields and tags; what moved goes back where it still points at the survivor; the
 * survivor's columns the merge set go back where they still hold what it set (a later edit stays).
 * Returns the restored row's id.
 */
export async function unmergeTransaction(db: Db, teamId: string, survivorId: string, mergedId?: string): Promise<string> {
  return db.transaction(async (trx) => {
    const survivor = (await storedRows(trx, teamId, [survivorId])).get(survivorId);
    if (!survivor) throw notFound(`Transaction ${survivorId} not found`);
    const q = trx('transaction_merges')
      .where({ teamId, survivorId })
      .orderBy([{ column: 'createdAt', order: 'desc' }, 'mergedId'])
      .first();
    if (mergedId) q.where({ mergedId });
    const merge = await q
      .forUpdate()
      .select<{ id: string; mergedId: string; snapshot: string } | undefined>('id', 'mergedId', trx.raw('snapshot::text as snapshot'));
    if (!merge)
      throw notFound(mergedId ? `Transaction ${survivorId} has no merge of ${mergedId}` : `Transaction ${survivorId} has no merge to undo`);
    const snap = JSON.parse(merge.snapshot) as MergeSnapshot;
    if (await trx('transactions').where({ teamId, id: merge.mergedId }).first('id'))
      throw conflict(`Transaction ${merge.mergedId} exists again`);

    const columns = (
      await trx.raw<{ rows: { name: string }[] }>(
        `select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = 'transactions' and is_generated = 'NEVER' and column_name = any(?)`,
        [Object.keys(snap.row)],
      )
    ).rows.map((r) => r.name);
    const list = columns.map(() => '??').join(', ');
    await trx.raw(`insert into transactions (${list}) select ${list} from jsonb_populate_record(null::transactions, ?::jsonb)`, [
      ...columns,
      ...columns,
      JSON.stringify(snap.row),
    ]);
    if (snap.tags.length) {
      await trx.raw(
        `insert into transaction_tags (team_id, transaction_id, tag_id) select ?, ?, g.id from tags g where g.team_id = ? and g.id = any(?::uuid[])
         on conflict (transaction_id, tag_id) do nothing`,
        [teamId, merge.mergedId, teamId, snap.tags],
      );
    }
    for (const link of LINKS) {
      const ids = snap.moved[link.key];
      if (ids.length)
        await trx.raw(`update ${link.table} set transaction_id = ? where team_id = ? and transaction_id = ? and id = any(?::uuid[])`, [
          merge.mergedId,
          teamId,
          survivorId,
          ids,
        ]);
    }
    if (snap.addedTags.length)
      await trx('transaction_tags').where({ teamId, transactionId: survivorId }).whereIn('tagId', snap.addedTags).delete();
    const restore = Object.fromEntries(
      Object.keys(snap.survivorBefore)
        .filter((c) => JSON.stringify(survivor[c]) === JSON.stringify(snap.survivorAfter[c]))
        .map((c) => [c, snap.survivorBefore[c]]),
    );
    await setColumns(trx, teamId, survivorId, restore);
    await trx('transaction_merges').where({ teamId, id: merge.id }).delete();
    await emitTransactionEvents(trx, teamId, 'transaction.created', [merge.mergedId]);
    await emitTransactionEvents(trx, teamId, 'transaction.updated', [survivorId]);
    return merge.mergedId;
  });
}

/** `GET /transactions/{id}`: the transaction and what was merged into it. */
export async function getTransactionDetail(db: Db, teamId: string, id: string): Promise<TransactionDetailDto> {
  const [transaction, mergedFrom] = await Promise.all([getTransaction(db, teamId, id), mergesOf(db, teamId, id)]);
  return { ...transaction, mergedFrom };
}

/** `POST /transactions/{id}/unmerge`: undoes a merge and answers both transactions as they are now. */
export async function unmerge(
  db: Db,
  teamId: string,
  id: string,
  mergedId?: string,
): Promise<{ transaction: TransactionDetailDto; restored: TransactionDto }> {
  const restoredId = await unmergeTransaction(db, teamId, id, mergedId);
  const [transaction, restored] = await Promise.all([getTransactionDetail(db, teamId, id), getTransaction(db, teamId, restoredId)]);
  return { transaction, restored };
}
