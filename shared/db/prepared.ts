import type { Db } from './knex';

/** A statement parsed once per connection and then only bound and executed. */
export interface PreparedStatement {
  /** Unique in the process: PostgreSQL keeps the plan under this name on each connection. */
  name: string;
  text: string;
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface PoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/**
 * Runs a prepared statement on a pooled connection, past knex's query builder and runner: for the
 * few statements a hot path runs on every request, where building and compiling the query cost more
 * than PostgreSQL took to answer it. The connection comes from knex's pool (so the team wall still
 * applies); rows come back with the column names the SQL gives them.
 */
export async function runPrepared<R>(db: Db, statement: PreparedStatement, values: unknown[]): Promise<R[]> {
  const client = db.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    const { rows } = await connection.query({ name: statement.name, text: statement.text, values });
    return rows as R[];
  } finally {
    await client.releaseConnection(connection);
  }
}
