import type { Knex } from 'knex';
import { ROWS_AS_SELECTED, type Db } from '../../db/knex';
import { runSql } from '../../db/prepared';
import { outsideTheWall } from '../../db/team-wall';
import { BankAccount, Category, TeamMember, Tag, Transaction, TransactionTag } from '../../db/models';
import { badRequest, conflict, notFound, type FieldProblem } from '../../errors';
import type { Page } from '../common/page';
import { afterKey, decodeSortedCursor, encodeSortedCursor, sortKeySql, sortOrder, type SortKeys, type SortedRow } from '../common/sort';
import { containsPattern } from '../common/query';
import { narrowingWord, textSample, transactionText, wordsByRarity, wordShare } from './text-filter';
import { dayBefore, newestInWeeks, planWeeks, whereInWeeks, type WeekWindow } from './week-probe';
import {
  BANK_OWNED_FIELDS,
  NEWEST_FIRST_SORT,
  type CreateTransactionBody,
  type ListTransactionsQuery,
  type TransactionFilter,
  type TransactionDto,
  type TransactionSort,
  type TransactionSortField,
  type UpdateTransactionBody,
} from './schema';
import { emitTransactionEvents } from '../webhook-endpoints/events';
import { fieldsSetByHand, markSetByHand, setByHandColumns } from '../transaction-rules/apply';
import { categoriseNew, loadCategorisingInputs } from '../learned-categories/apply';

/**
 * Newest first, keyset-paginated on (date, id) so every page costs the same however deep it is, or
 * in the order `sort=` names (pageInOrder). Tags and attachments come back in the same round trip as
 * json aggregates.
 *
 * Runs outside the team wall, as search does (shared/db/team-wall.ts): under row-level security
 * PostgreSQL estimates a range on a column whose comparison is not leakproof (`amount`, numeric) as
 * matching one row, and for "one row" it reads the whole date range and sorts it instead of walking
 * the (team, date) index to the first 50, which is orders of magnitude slower on a large team. The
 * list's SQL names the team on `transactions` and reaches every other table through it.
 */
export async function listTransactions(db: Db, teamId: string, query: ListTransactionsQuery): Promise<Page<TransactionDto>> {
  if (query.sort && !query.sort.isDefault) return pageInOrder(db, teamId, query, query.sort);
  const rows = await outsideTheWall(() => {
    if (query.q) return searchPage(db, teamId, query, query.q);
    const { sql, bindings } = listTransactionsSql(db, teamId, query);
    return runSql<TransactionDto>(db, sql, bindings);
  });
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    data: page,
    meta: { cursor: hasNextPage && last ? encodeSortedCursor(NEWEST_FIRST_SORT, [last.date, last.id]) : null, hasNextPage },
  };
}

/** Where each field of `sort=` lives; each has a (team_id, field, id) index (migrations 0001, 0086). */
const SORT_KEYS: SortKeys<TransactionSortField> = {
  fields: {
    date: { sql: 't.date', part: 'date' },
    amount: { sql: 't.amount', part: 'number' },
    // A bank may send a name of any length, and a btree entry holds at most about 2.7 kB: the index,
    // and so the order, take the name's first 200 characters (then the id).
    name: { sql: 'left(t.name, 200)', part: 'text' },
    createdAt: { sql: 't.created_at', part: 'timestamp' },
  },
  id: 't.id',
};

/**
 * A page in an order other than newest first, through the builder: the page is read in the order's
 * index (team_id, field, id) and resumed from the cursor's key. A `q=` narrows by its rarest word
 * through the trigram index when that word is rare; a common one would narrow to most of the team's
 * rows, all sorted before the first page, so the rows are walked in the index's order instead.
 */
async function pageInOrder(db: Db, teamId: string, query: ListTransactionsQuery, sort: TransactionSort): Promise<Page<TransactionDto>> {
  const rows = await outsideTheWall(async () => {
    let narrowing: TextNarrowing | null | undefined;
    if (query.q) {
      const rarest = wordsByRarity(query.q, await textSample(db)).at(0);
      narrowing = rarest && rarest.share < WALK_SHARE ? { word: rarest.word } : null;
    }
    return (await buildListQuery(db, teamId, query, narrowing)) as (TransactionDto & SortedRow)[];
  });
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    data: page.map(({ cursorKey: _key, ...dto }) => dto),
    meta: { cursor: hasNextPage && last ? encodeSortedCursor(sort, last.cursorKey) : null, hasNextPage },
  };
}

export async function getTransaction(db: Db, teamId: string, id: string): Promise<TransactionDto> {
  const row = (await selectTransactions(db, teamId).where('t.id', id)).at(0);
  if (!row) throw notFound(`Transaction ${id} not found`);
  return row;
}

/**
 * Creates a manual transaction; every referenced account, category, tag and user must be the team's.
 * The fields given are set by hand; the team's rules, then what it learned, fill in the rest before it is announced.
 */
export async function createTransaction(db: Db, teamId: string, body: CreateTransactionBody): Promise<TransactionDto> {
  const id = await db.transaction(async (trx) => {
    await assertReferences(trx, teamId, body);
    const categorising = await loadCategorisingInputs(trx, teamId);
    const { tags, ...fields } = body;
    // `status` always has a value (its default): only the annotations given count as set by hand.
    const byHand = setByHandColumns(fieldsSetByHand({ ...body, status: undefined }));
    const created = await Transaction.query(trx).insert({ ...fields, teamId, manual: true, ...byHand });
    if (tags) await replaceTags(trx, teamId, created.id, tags);
    await categoriseNew(trx, teamId, [created.id], categorising);
    await emitTransactionEvents(trx, teamId, 'transaction.created', [created.id]);
    return created.id;
  });
  return getTransaction(db, teamId, id);
}

export async function updateTransaction(db: Db, teamId: string, id: string, body: UpdateTransactionBody): Promise<TransactionDto> {
  await db.transaction(async (trx) => {
    const current = await Transaction.query(trx).findOne({ teamId, id }).forUpdate();
    if (!current) throw notFound(`Transaction ${id} not found`);
    if (!current.manual) {
      const locked = BANK_OWNED_FIELDS.filter((f) => f in body);
      if (locked.length) {
        throw badRequest(
          'The bank is the source of truth for these fields of a bank-synced transaction',
          locked.map((field) => ({ field, message: 'cannot be changed on a bank-synced transaction' })),
        );
      }
    }
    await assertReferences(trx, teamId, body);
    const { tags, ...fields } = body;
    if (Object.keys(fields).length)
      await Transaction.query(trx)
        .findOne({ teamId, id })
        .patch({ ...fields, updatedAt: new Date() });
    if (tags) await replaceTags(trx, teamId, id, tags);
    await markSetByHand(trx, teamId, [id], fieldsSetByHand(body));
    await emitTransactionEvents(trx, teamId, 'transaction.updated', [id]);
  });
  return getTransaction(db, teamId, id);
}

/** Only manual transactions can be deleted; a bank transaction would come back on the next sync. */
export async function deleteTransaction(db: Db, teamId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await Transaction.query(trx).findOne({ teamId, id }).forUpdate().select('manual');
    if (!row) throw notFound(`Transaction ${id} not found`);
    if (!row.manual) throw conflict('A bank-synced transaction cannot be deleted; set its status to `excluded` to hide it');
    await deleteAnnounced(trx, teamId, [id]);
  });
}

/**
 * Every deletion of transactions goes through here: each is announced as `transaction.deleted` with
 * what it held, so it is read before the delete, in the caller's transaction. Returns how many went.
 */
export async function deleteAnnounced(trx: Knex.Transaction, teamId: string, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  await emitTransactionEvents(trx, teamId, 'transaction.deleted', ids);
  return trx('transactions').where({ teamId }).whereIn('id', ids).delete();
}

/**
 * The bank withdrew these (a sync's `removed`, a TRANSACTIONS_REMOVED webhook): the team's rows with
 * those provider ids go. A pending one that a person gave something (a field set by hand, a receipt,
 * an inbox match) stays: bank-a withdraws a pending transaction when it books it, and the booked one,
 * which names it, may come in a later page or sync and takes that over (mergeArrivals); one never
 * booked goes after PENDING_TRANSACTION_MAX_AGE_DAYS, with a notice (expireStalePending).
 */
export async function deleteWithdrawnTransactions(db: Knex, teamId: string, providerTransactionIds: readonly string[]): Promise<number> {
  if (!providerTransactionIds.length) return 0;
  return db.transaction(async (trx) => {
    const ids = await trx('transactions as t')
      .where('t.teamId', teamId)
      .whereIn('t.providerTransactionId', providerTransactionIds)
      .whereRaw(
        `not (t.pending and (t.manual_fields <> '{}'
           or exists (select 1 from transaction_attachments x where x.transaction_id = t.id)
           or exists (select 1 from inbox_items i where i.transaction_id = t.id)))`,
      )
      .forUpdate()
      .pluck<string[]>('t.id');
    return deleteAnnounced(trx, teamId, ids);
  });
}

export async function assertReferences(
  db: Knex,
  teamId: string,
  body: { bankAccountId?: string | null; categorySlug?: string | null; assignedId?: string | null; tags?: string[] },
) {
  const problems: FieldProblem[] = [];
  if (body.bankAccountId && !(await BankAccount.query(db).findOne({ teamId, id: body.bankAccountId }).select('id'))) {
    problems.push({ field: 'bankAccountId', message: 'no such bank account in your team' });
  }
  if (body.categorySlug && !(await Category.query(db).findOne({ teamId, slug: body.categorySlug }).select('id'))) {
    problems.push({ field: 'categorySlug', message: 'no such category in your team' });
  }
  if (body.assignedId && !(await TeamMember.query(db).findOne({ teamId, userId: body.assignedId }).select('id'))) {
    problems.push({ field: 'assignedId', message: 'not a member of your team' });
  }
  if (body.tags?.length) {
    const found = new Set((await Tag.query(db).where({ teamId }).whereIn('id', body.tags).select('id')).map((t) => t.id));
    const missing = body.tags.filter((t) => !found.has(t));
    if (missing.length) problems.push({ field: 'tags', message: `no such tags in your team: ${missing.join(', ')}` });
  }
  if (problems.length) throw badRequest(`Invalid references: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, problems);
}

async function replaceTags(db: Knex, teamId: string, transactionId: string, tags: string[]) {
  await TransactionTag.query(db).where({ teamId, transactionId }).delete();
  const unique = [...new Set(tags)];
  if (unique.length) await TransactionTag.query(db).insert(unique.map((tagId) => ({ teamId, transactionId, tagId })));
}

/**
 * The SQL and bindings of a list query: what the list runs, and what benchmarks (a bare driver beside
 * the API) and plan tests run. A newest-first page without `q=` is assembled as text from the filters'
 * conditions, past knex's builder: the list is the hot path, and building and compiling the query cost
 * more CPU than the rest of the request. A `q=` (searchPage) narrows through the builder, and another
 * order goes through it as well.
 */
export function listTransactionsSql(db: Db, teamId: string, query: ListTransactionsQuery, narrowing?: TextNarrowing) {
  if (query.q || narrowing || (query.sort && !query.sort.isDefault)) return buildListQuery(db, teamId, query, narrowing).toSQL().toNative();
  const bindings: Knex.Value[] = [teamId];
  let conditions = '';
  for (const [condition, values] of filterConditions(query)) {
    conditions += ` and ${condition}`;
    bindings.push(...values);
  }
  if (query.cursor) {
    conditions += ` and ${CURSOR_CONDITION}`;
    bindings.push(...(decodeSortedCursor(query.cursor, NEWEST_FIRST_SORT, SORT_KEYS) as string[]));
  }
  // push returns the new length: the number of the placeholder just bound.
  const limit = bindings.push(query.pageSize + 1);
  const team = bindings.push(teamId);
  const sql = `${LIST_HEAD}${numbered(conditions, 2)}${LIST_LIMIT}${limit}${LIST_OUTER}${team}${LIST_ORDER}`;
  return { sql, bindings };
}

/** `?` placeholders as PostgreSQL's `$first`, `$first + 1`, … (the conditions hold no other question mark). */
const numbered = (sql: string, first: number) => {
  let n = first - 1;
  return sql.replace(/\?/g, () => `$${++n}`);
};

// What afterKey writes for newest first, written out once for the hand-assembled SQL.
const CURSOR_CONDITION = '(t.date, t.id) < (?::date, ?::uuid)';

/**
 * A page of `q=` matches. When the query's rarest word (of three letters or digits) is rare, the
 * team's trigram keys are probed week by week, newest first (week-probe.ts). When even that word is
 * in one row in WALK_SHARE or more ("merchant" of "Merchant 42"), the keys cannot narrow and the
 * team's rows are walked newest first, each checked: first its newest thousand, and past them only
 * if the text was there often enough for the rest of the page to lie within WALK_ROWS more rows;
 * otherwise (a team where the text is rarer than the sample says) the weeks before are probed. A
 * query without such a word has nothing to look up: it walks.
 */
async function searchPage(db: Db, teamId: string, query: ListTransactionsQuery, q: string): Promise<TransactionDto[]> {
  const sample = await textSample(db);
  const words = wordsByRarity(q, sample);
  if (!words.length) return buildListQuery(db, teamId, query, null);
  const [rarest] = words;
  let to = query.to;
  if (query.cursor) {
    const [date] = decodeSortedCursor(query.cursor, NEWEST_FIRST_SORT, SORT_KEYS) as string[];
    if (!to || date < to) to = date;
  }
  const pageRows = query.pageSize + 1;
  // The keys of a word most rows hold narrow nothing and cost a posting list as long as the weeks
  // probed ("merchant" beside "417" makes the probe slower, not narrower): only the rarest word and
  // rare ones.
  const looked = words.filter((w) => w === rarest || w.share < WALK_SHARE).map((w) => w.word);
  const rarestShare = wordShare(rarest.word, sample, rarest.share);
  const plan = await planWeeks(db, teamId, looked, { from: query.from, to }, rarestShare, pageRows);
  if (!plan) return [];
  // pg_trgm may split a word where JavaScript does not (a letter it does not count as one) and
  // leave no trigram inside it: the whole-table trigram index narrows instead.
  if (!plan.trigrams.some((t) => t.length)) return buildListQuery(db, teamId, query, { word: rarest.word });

  const found: TransactionDto[] = [];
  let last = plan.last;
  if (rarest.share >= WALK_SHARE) {
    const newest = { ...query, from: plan.near > (query.from ?? '') ? plan.near : query.from };
    found.push(...(await buildListQuery(db, teamId, newest, null)));
    if (found.length >= pageRows || plan.near <= plan.first) return found;
    last = dayBefore(plan.near);
    const rowsToWalk = found.length ? ((pageRows - found.length) * plan.recent) / found.length : Infinity;
    if (rowsToWalk <= WALK_ROWS) {
      const rest = { ...query, to: last, pageSize: query.pageSize - found.length };
      return [...found, ...(await buildListQuery(db, teamId, rest, null))];
    }
  }
  const before = { ...query, to: last };
  found.push(
    ...(await newestInWeeks(teamId, { ...plan, last }, pageRows - found.length, (weeks, rows) =>
      buildListQuery(db, teamId, { ...before, pageSize: rows - 1 }, { weeks }),
    )),
  );
  return found;
}

/** The sampled share of rows holding the rarest word at which its trigram keys no longer narrow. */
const WALK_SHARE = 0.05;
/** Rows a walk past the newest thousand may be expected to read before probing is cheaper. */
const WALK_ROWS = 50_000;

// The list's pages that are not newest first without `q=` (those are hand-assembled): the page is
// chosen first, in the order's (team_id, field, id) index, and only its rows are joined: a text
// search that narrows through the trigram index sorts every match, and joined before the limit each
// match read its category. A `q=` is narrowed by `narrowing` (a null one walks the rows; none, by the
// longest word). In another order than newest first each row also carries its key (`cursorKey`).
function buildListQuery(db: Db, teamId: string, query: ListTransactionsQuery, narrowing?: TextNarrowing | null) {
  const sort = query.sort ?? NEWEST_FIRST_SORT;
  const order = sortOrder(sort, SORT_KEYS);
  // A window of weeks is read on its own first (a materialized CTE), where only its index can serve
  // it: beside the team's (team_id, date) index PostgreSQL takes a hundred week keys for a third of
  // the table and walks the team's rows or ANDs in their date range, far slower than the keys alone
  // on a large table.
  const weeks = narrowing && 'weeks' in narrowing ? narrowing.weeks : null;
  const source: Knex.QueryBuilder = weeks
    ? db
        .queryBuilder()
        .withMaterialized('week_matches', whereInWeeks(db('transactions as t').select('t.*'), weeks))
        .from('week_matches as t')
    : db('transactions as t');
  const page = source
    .where('t.team_id', teamId)
    .select('t.*')
    .orderByRaw(order)
    .limit(query.pageSize + 1);

  if (query.cursor) {
    const { sql, bindings } = afterKey(sort, SORT_KEYS, decodeSortedCursor(query.cursor, sort, SORT_KEYS));
    page.whereRaw(sql, bindings);
  }
  whereFiltered(db, page, query, narrowing && 'weeks' in narrowing ? null : narrowing);
  const key = sort.isDefault ? undefined : `${sortKeySql(sort, SORT_KEYS)} as "cursorKey"`;
  return selectTransactions(db, teamId, page.as('t'), key).orderByRaw(order);
}

/**
 * How a `q=` narrows the rows before each column is checked: by a word, through the whole table's
 * trigram index (migration 0080), or by a window of the team's weeks (0081, the list's way).
 */
export type TextNarrowing = { word: string } | { weeks: WeekWindow };

/**
 * The list's filters (also the bulk edit's selection), on a query of `transactions as t`. A `q=` is
 * narrowed by `narrowing`'s word, by its longest word when none is given, and not at all with null
 * (the rows are walked, or are already a week window's).
 */
export function whereFiltered<Q extends Knex.QueryBuilder>(db: Db, q: Q, query: TransactionFilter, narrowing?: { word: string } | null): Q {
  for (const [condition, values] of filterConditions(query)) q.whereRaw(condition, values);
  if (query.q) {
    const like = containsPattern(query.q);
    // Each column is checked for the whole text on its own, so a match never spans two fields. A
    // text without three letters or digits in a row has no trigram to look up: the index would be
    // read whole (a second over a million rows), so the rows are walked.
    const word = narrowing === undefined ? narrowingWord(query.q, null) : narrowing?.word;
    if (word) q.whereRaw(`${transactionText('t')} ilike ?`, [containsPattern(word)]);
    q.where((w) => {
      w.whereILike('t.name', like)
        .orWhereILike('t.description', like)
        .orWhereILike('t.counterparty_name', like)
        .orWhereILike('t.merchant_name', like);
    });
  }

  return q;
}

/**
 * Each filter of the list other than `q=` as one condition on `transactions as t` with its values
 * (`?` placeholders; a list is one array value): the list's hand-assembled SQL and the builder's
 * `whereFiltered` both read the filters from here.
 */
function filterConditions(query: TransactionFilter): [condition: string, values: Knex.Value[]][] {
  const c: [string, Knex.Value[]][] = [];
  c.push(query.statuses ? ['t.status = any(?)', [query.statuses]] : ["t.status not in ('excluded', 'archived')", []]);
  if (query.from) c.push(['t.date >= ?', [query.from]]);
  if (query.to) c.push(['t.date <= ?', [query.to]]);
  if (query.accounts) c.push(['t.bank_account_id = any(?)', [query.accounts]]);
  // A split transaction is in the categories of its parts, not in its own.
  if (query.categories)
    c.push([
      `case when t.splits is null then t.category_slug = any(?)
         else exists (select 1 from jsonb_array_elements(t.splits) s where s ->> 'categorySlug' = any(?)) end`,
      [query.categories, query.categories],
    ]);
  if (query.currency) c.push(['t.currency = ?', [query.currency]]);
  if (query.type === 'income') c.push(['t.amount > 0', []]);
  if (query.type === 'expense') c.push(['t.amount < 0', []]);
  if (query.amountMin !== undefined) c.push(['t.amount >= ?', [query.amountMin]]);
  if (query.amountMax !== undefined) c.push(['t.amount <= ?', [query.amountMax]]);
  if (query.manual !== undefined) c.push(['t.manual = ?', [query.manual]]);
  // Written as the index transactions_categorized_by_idx reads it (migration 0099).
  if (query.categorizedBy)
    c.push([`t.category_slug is not null and (t.field_sources #>> '{categorySlug,by}') = any(?)`, [query.categorizedBy]]);
  if (query.tags)
    c.push(['exists (select 1 from transaction_tags ft where ft.transaction_id = t.id and ft.tag_id = any(?))', [query.tags]]);
  return c;
}

/**
 * Transactions of one team with their account, category, tags and attachments, in one round trip,
 * each row already a TransactionDto: the columns are named as the API names them and timestamps
 * are formatted by PostgreSQL, so the list maps no keys and parses no dates (the list is the hot path).
 */
function selectTransactions(db: Db, teamId: string, from: Knex.QueryBuilder | string = 'transactions as t', extraColumn?: string) {
  return db
    .from(from)
    .joinRaw(DTO_JOINS)
    .where('t.team_id', teamId)
    .select<TransactionDto[]>(db.raw(extraColumn ? `${DTO_COLUMNS}, ${extraColumn}` : DTO_COLUMNS))
    .queryContext(ROWS_AS_SELECTED);
}

// A split's parts as the API shows them: a category or tag deleted since is left out, as on the whole.
const SPLIT_PARTS_JSON = `(select json_agg(json_build_object(
      'amount', (s.p ->> 'amount')::numeric,
      'category', case when sc.id is null then null else json_build_object('slug', sc.slug, 'name', sc.name, 'color', sc.color) end,
      'tags', coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name) from tags g
                         where g.team_id = t.team_id and g.id::text in (select jsonb_array_elements_text(s.p -> 'tags'))), '[]'),
      'note', s.p ->> 'note') order by s.n)
    from jsonb_array_elements(t.splits) with ordinality as s(p, n)
    left join transaction_categories sc on sc.team_id = t.team_id and sc.slug = s.p ->> 'categorySlug')`;

const DTO_JOINS = `left join bank_accounts as a on a.id = t.bank_account_id
  left join transaction_categories as c on c.team_id = t.team_id and c.slug = t.category_slug`;
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const DTO_COLUMNS = `t.id, t.date, t.name, t.description, t.amount, t.currency, t.status, t.method,
  case when c.id is null then null else json_build_object('slug', c.slug, 'name', c.name, 'color', c.color) end as category,
  case when c.id is null then null else t.field_sources -> 'categorySlug' end as "categorySource",
  case when t.category_slug is null and t.suggested_category is not null then
    (select json_build_object('slug', sc.slug, 'name', sc.name, 'confidence', (t.suggested_category ->> 'confidence')::float8,
       'explanation', t.suggested_category ->> 'explanation', 'neighbours', t.suggested_category -> 'neighbours')
       from transaction_categories sc where sc.team_id = t.team_id and sc.slug = t.suggested_category ->> 'slug') end as "suggestedCategory",
  t.counterparty_name as "counterpartyName", t.merchant_name as "merchantName", t.note, t.manual, t.internal,
  t.recurring, t.frequency, t.tax_amount as "taxAmount", t.tax_rate as "taxRate", t.tax_type as "taxType",
  case when a.id is null then null else json_build_object('id', a.id, 'name', a.name, 'currency', a.currency) end as account,
  coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
            from transaction_tags tt join tags g on g.id = tt.tag_id
            where tt.transaction_id = t.id), '[]') as tags,
  case when t.splits is null then null else ${SPLIT_PARTS_JSON} end as splits,
  coalesce((select json_agg(json_build_object('id', x.id, 'name', x.name, 'mimeType', x.mime_type, 'size', x.size) order by x.created_at)
            from transaction_attachments x where x.transaction_id = t.id), '[]') as attachments,
  to_char(t.created_at at time zone 'UTC', ${ISO_UTC}) as "createdAt",
  to_char(t.updated_at at time zone 'UTC', ${ISO_UTC}) as "updatedAt"`;

// The hand-assembled list's SQL (listTransactionsSql) around its conditions, made once at load: per
// request only the conditions and the numbers of the last two placeholders change.
const LIST_HEAD = `select ${DTO_COLUMNS} from (select t.* from transactions as t where t.team_id = $1`;
const LIST_LIMIT = ' order by t.date desc, t.id desc limit $';
const LIST_OUTER = `) as t ${DTO_JOINS} where t.team_id = $`;
const LIST_ORDER = ' order by t.date desc, t.id desc';
