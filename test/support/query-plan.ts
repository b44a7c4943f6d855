import type { Knex } from 'knex';

const ROLLBACK = new Error('rolled back on purpose');

/**
 * Runs `fn` in a transaction that is always rolled back (filler rows, ANALYZE and settings go with
 * it) with sequential scans off: the plan for a test-sized table is not the question, whether the
 * index can serve the query is. Returns what `fn` returned.
 */
export async function withoutSequentialScans<T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db
    .transaction(async (trx) => {
      await trx.raw('set local enable_seqscan = off');
      result = await fn(trx);
      throw ROLLBACK;
    })
    .catch((err: unknown) => {
      if (err !== ROLLBACK) throw err;
    });
  return result as T;
}

/** The plan PostgreSQL chooses for a statement: plain SQL, or knex's native form (`$1`…) with its bindings. */
export async function planOf(trx: Knex, statement: string | { sql: string; bindings: readonly unknown[] }): Promise<string> {
  const { sql, bindings } = typeof statement === 'string' ? { sql: statement, bindings: [] } : statement;
  const { rows } = await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>(`explain ${sql.replace(/\$\d+/g, '?')}`, [
    ...bindings,
  ] as Knex.RawBinding[]);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}
