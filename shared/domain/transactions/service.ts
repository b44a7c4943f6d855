import type { Db } from '../../db/knex';
import { decodeCursor, encodeCursor, type Page } from '../common/cursor';
import type { ListTransactionsQuery, TransactionDto } from './schema';

const iso = (v: Date | string) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

/**
 * Newest first, keyset-paginated on (date, id) so every page costs the same however deep it is.
 * Tags and attachments come back in the same round trip as json aggregates.
 */
export async function listTransactions(db: Db, teamId: string, query: ListTransactionsQuery): Promise<Page<TransactionDto>> {
  const rows: any[] = await buildListQuery(db, teamId, query);
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page[page.length - 1];
  return {
    data: page.map(toDto),
    meta: { cursor: hasNextPage && last ? encodeCursor([last.date, last.id]) : null, hasNextPage },
  };
}

/** The SQL and bindings of a list query, for benchmarks that compare against a bare driver. */
export function listTransactionsSql(db: Db, teamId: string, query: ListTransactionsQuery) {
  return buildListQuery(db, teamId, query).toSQL().toNative();
}

function buildListQuery(db: Db, teamId: string, query: ListTransactionsQuery) {
  const q = db('transactions as t')
    .leftJoin('bank_accounts as a', 'a.id', 't.bank_account_id')
    .leftJoin('transaction_categories as c', function () {
      this.on('c.team_id', '=', 't.team_id').andOn('c.slug', '=', 't.category_slug');
    })
    .where('t.team_id', teamId)
    .select(
      't.*',
      db.raw(`case when a.id is null then null else json_build_object('id', a.id, 'name', a.name, 'currency', a.currency) end as account`),
      db.raw(`case when c.id is null then null else json_build_object('slug', c.slug, 'name', c.name, 'color', c.color) end as category`),
      db.raw(`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
                        from transaction_tags tt join tags g on g.id = tt.tag_id
                        where tt.transaction_id = t.id), '[]') as tags`),
      db.raw(`coalesce((select json_agg(json_build_object('id', x.id, 'name', x.name, 'mime_type', x.mime_type, 'size', x.size) order by x.created_at)
                        from transaction_attachments x where x.transaction_id = t.id), '[]') as attachments`),
    )
    .orderBy([{ column: 't.date', order: 'desc' }, { column: 't.id', order: 'desc' }])
    .limit(query.pageSize + 1);

  if (query.cursor) {
    const [date, id] = decodeCursor(query.cursor, 2);
    q.whereRaw('(t.date, t.id) < (?::date, ?::uuid)', [date, id]);
  }
  if (query.statuses) q.whereIn('t.status', query.statuses);
  else q.whereNotIn('t.status', ['excluded', 'archived']);
  if (query.from) q.where('t.date', '>=', query.from);
  if (query.to) q.where('t.date', '<=', query.to);
  if (query.accounts) q.whereIn('t.bank_account_id', query.accounts);
  if (query.categories) q.whereIn('t.category_slug', query.categories);
  if (query.currency) q.where('t.currency', query.currency);
  if (query.type === 'income') q.where('t.amount', '>', 0);
  if (query.type === 'expense') q.where('t.amount', '<', 0);
  if (query.amountMin !== undefined) q.where('t.amount', '>=', query.amountMin);
  if (query.amountMax !== undefined) q.where('t.amount', '<=', query.amountMax);
  if (query.manual !== undefined) q.where('t.manual', query.manual);
  if (query.tags) {
    q.whereExists(db('transaction_tags as ft').whereRaw('ft.transaction_id = t.id').whereIn('ft.tag_id', query.tags));
  }
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q.where((w) =>
      w.whereILike('t.name', like).orWhereILike('t.description', like).orWhereILike('t.counterparty_name', like).orWhereILike('t.merchant_name', like),
    );
  }

  return q;
}

function toDto(r: any): TransactionDto {
  return {
    id: r.id,
    date: r.date,
    name: r.name,
    description: r.description,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    method: r.method,
    category: r.category,
    counterpartyName: r.counterpartyName,
    merchantName: r.merchantName,
    note: r.note,
    manual: r.manual,
    internal: r.internal,
    recurring: r.recurring,
    frequency: r.frequency,
    taxAmount: r.taxAmount,
    taxRate: r.taxRate,
    taxType: r.taxType,
    account: r.account,
    tags: r.tags,
    attachments: r.attachments.map((a: any) => ({ id: a.id, name: a.name, mimeType: a.mime_type, size: Number(a.size) })),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}
