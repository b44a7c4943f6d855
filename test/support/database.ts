import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb, type Db } from '../../shared/db/knex';
import { REAP_CHANNEL } from './database-reaper';
import { withDatabase } from './global-setup';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from the template the global setup built. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL!;
  const template = process.env.TEST_TEMPLATE_DATABASE!;
  const setupPid = template.split('_').pop();
  const name = `finops_t_${setupPid}_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`create database ${name} template ${template}`);
      break;
    } catch (err) {
      // Two files cloning the template at the same instant can collide; a retry settles it.
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const db = createDb({ url, poolMax: 5 });
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      // The suite's reaper drops it while this worker goes on (see database-reaper.ts).
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`select pg_notify($1, $2)`, [REAP_CHANNEL, name]);
      await c.end();
    },
  };
}

/** What a test reads of its file's database; dropping it is the helper's job. */
export type FileDatabase = Pick<TestDatabase, 'url' | 'db'>;

/**
 * A fresh database for the test file. Registers its own beforeAll/afterAll; read the fields inside
 * tests. `setUp` builds what the file needs over the database once it exists; `tearDown` stops it
 * before the database is dropped (workers, the API and child processes still hold connections),
 * and runs even when set-up failed part way, so it must stop only what was started.
 */
export function withTestDatabase(extra: { setUp?: () => void | Promise<void>; tearDown?: () => void | Promise<void> } = {}): FileDatabase {
  const tdb = {} as FileDatabase;
  let started: TestDatabase | undefined;
  beforeAll(async () => {
    started = await createTestDatabase();
    tdb.url = started.url;
    tdb.db = started.db;
    await extra.setUp?.();
  });
  afterAll(async () => {
    await extra.tearDown?.();
    await started?.drop();
  });
  return tdb;
}
