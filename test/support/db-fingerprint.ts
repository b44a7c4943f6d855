import type { Db } from '../../shared/db/knex';

/** Tables that change as a side effect of any request, not of what the request asked for. */
const BOOKKEEPING = new Set(['knex_migrations', 'knex_migrations_lock', 'rate_limits']);

/**
 * A digest of every row of every table: equal before and after a request proves it wrote nothing
 * (not a row added, changed or deleted). For test databases, which are small.
 */
export async function dbFingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await db('pg_tables').where({ schemaname: 'public' }).pluck<string[]>('tablename')).filter((t) => !BOOKKEEPING.has(t));
  const sql = tables
    .map((t) => `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`)
    .join(' union all ');
  const { rows } = await db.raw<{ rows: { t: string; h: string }[] }>(sql);
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}
