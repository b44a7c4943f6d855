import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { types } from 'pg';
import type { Logger } from '../logger';
import { migrationSource } from './migrations';
import { installTeamWall } from './team-wall';

// numeric(19,4) money comes back as a JS number (the API speaks JSON numbers), and `date` columns stay
// 'YYYY-MM-DD' strings: converting them to Date would shift them by the server's time zone.
types.setTypeParser(types.builtins.NUMERIC, (v) => Number(v));
types.setTypeParser(types.builtins.INT8, (v) => Number(v));
types.setTypeParser(types.builtins.DATE, (v) => v);

export type Db = Knex;

/**
 * `query.queryContext(ROWS_AS_SELECTED)` returns rows with the column names the SQL gave them,
 * skipping the snake_case → camelCase key mapping. For hot reads whose SQL already names its columns
 * as the API does: mapping every key of every row is a visible share of a list's CPU.
 */
export const ROWS_AS_SELECTED = Object.freeze({ rowsAsSelected: true });

/**
 * Several reads: at once on a pool, each on a connection of its own; one after the other on a
 * transaction, whose one connection takes one query at a time (pg queues a query sent meanwhile, a
 * use it deprecates and pg 9 refuses).
 */
export async function readTogether<T extends readonly unknown[]>(db: Db, reads: { [K in keyof T]: () => PromiseLike<T[K]> }): Promise<T> {
  if (!db.isTransaction) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}

export interface DbOptions {
  url: string;
  poolMax?: number;
  /** Where knex's own warnings go (a lost connection, a deprecation); without one, the console. */
  logger?: Pick<Logger, 'warn' | 'error' | 'debug'>;
}

/**
 * One knex instance per process; columns are snake_case in PostgreSQL and camelCase in code.
 *
 * JIT compilation is off for our sessions. PostgreSQL compiles a query whose estimated cost passes
 * jit_above_cost, and its estimates can be wrong by orders of magnitude where we depend on them most
 * (a team's week trigram keys, ranges under row-level security): a text search that reads a few
 * rows can spend far longer being compiled than being run. Every query here is meant to take
 * milliseconds; compiling pays off for queries of seconds.
 */
export function createDb({ url, poolMax = 10, logger }: DbOptions): Db {
  const db = knexFactory({
    client: 'pg',
    connection: { connectionString: url, options: '-c jit=off' },
    pool: { min: 0, max: poolMax },
    ...(logger && {
      log: {
        warn: (m: unknown) => logger.warn({ component: 'knex' }, String(m)),
        error: (m: unknown) => logger.error({ component: 'knex' }, String(m)),
        deprecate: (m: unknown) => logger.warn({ component: 'knex' }, String(m)),
        debug: (m: unknown) => logger.debug({ component: 'knex' }, String(m)),
      },
    }),
    ...caseMappers(),
  });
  installTeamWall(db);
  return db;
}

function caseMappers(): Pick<Knex.Config, 'wrapIdentifier' | 'postProcessResponse'> {
  const mappers = knexSnakeCaseMappers();
  return {
    wrapIdentifier: (identifier, origWrap) => mappers.wrapIdentifier(identifier, origWrap),
    postProcessResponse: (result: unknown, context?: unknown): unknown =>
      context === ROWS_AS_SELECTED ? result : (mappers.postProcessResponse(result) as unknown),
  };
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function pingDb(db: Db): Promise<void> {
  await db.raw('select 1');
}
