import type { Db } from './knex';

/** A statement parsed once per connection and then only bound and executed. */
export interface PreparedStatement {
  /** Unique in the process: PostgreSQL keeps the plan under this name on each connection. */
  name: string;
  text: string;
}

interface PgConnection {
  query(
    config: { name?: string; text: string; values: readonly unknown[] },
    callback: (err: Error | null, result: { rows: unknown[] }) => void,
  ): void;
  __knexUid?: string;
}
interface PoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
  emit(event: 'query', query: { __knexUid?: string; sql: string; bindings: readonly unknown[] }): boolean;
}

/**
 * Runs a prepared statement on a pooled connection, past knex's query builder and runner: for the
 * few statements a hot path runs on every request, where building and compiling the query cost more
 * than PostgreSQL took to answer it. The connection comes from knex's pool (so the team wall still
 * applies); rows come back with the column names the SQL gives them.
 */
export const runPrepared = <R>(db: Db, statement: PreparedStatement, values: unknown[]): Promise<R[]> =>
  run<R>(db, { name: statement.name, text: statement.text, values });

/**
 * Runs SQL assembled by hand (with `$n` placeholders) the same way, unnamed: PostgreSQL plans it for
 * its values each time, for a query whose best plan depends on them (a team's size, its filters).
 */
export const runSql = <R>(db: Db, text: string, values: readonly unknown[]): Promise<R[]> => run<R>(db, { text, values });

/**
 * pg's callback form, as knex's own runner calls it. Its promise form (`await connection.query(q)`)
 * keeps each result reachable across the next young-generation collections, so every page of rows
 * was promoted to the old generation and freed only by a full collection; with the callback the
 * rows die young, as they do in a bare `pg` program.
 */
async function run<R>(db: Db, query: { name?: string; text: string; values: readonly unknown[] }): Promise<R[]> {
  const client = db.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    // As knex's own runner does: every query the process runs shows among its query events (debug, tests).
    client.emit('query', { __knexUid: connection.__knexUid, sql: query.text, bindings: query.values });
    return await new Promise<R[]>((resolve, reject) =>
      connection.query(query, (err, result) => (err ? reject(err) : resolve(result.rows as R[]))),
    );
  } finally {
    await client.releaseConnection(connection);
  }
}
