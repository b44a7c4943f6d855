import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { types } from 'pg';
import { migrationSource } from './migrations';

// numeric(19,4) money comes back as a JS number (the API speaks JSON numbers), and `date` columns stay
// 'YYYY-MM-DD' strings: converting them to Date would shift them by the server's time zone.
types.setTypeParser(types.builtins.NUMERIC, (v) => Number(v));
types.setTypeParser(types.builtins.INT8, (v) => Number(v));
types.setTypeParser(types.builtins.DATE, (v) => v);

export type Db = Knex;

export interface DbOptions {
  url: string;
  poolMax?: number;
}

/** One knex instance per process; columns are snake_case in PostgreSQL and camelCase in code. */
export function createDb({ url, poolMax = 10 }: DbOptions): Db {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: poolMax },
    ...knexSnakeCaseMappers(),
  });
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest({ migrationSource });
  return applied as string[];
}

export async function pingDb(db: Db): Promise<void> {
  await db.raw('select 1');
}
