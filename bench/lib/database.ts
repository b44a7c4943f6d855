import path from 'node:path';
import { Client } from 'pg';
import { createDb, migrateLatest, type Db } from '../../shared/db/knex';
import { PROJECT_ROOT } from '../../shared/paths';
import { startEmbeddedPostgres, ensureDatabase } from '../../scripts/lib/embedded-postgres';
import { freePort } from '../../scripts/lib/ports';

export interface BenchDatabase {
  url: string;
  db: Db;
  close(): Promise<void>;
}

/**
 * A migrated database for a benchmark: on DATABASE_URL's server when set (kept between runs, so
 * large fixtures are seeded once), else on a throw-away embedded PostgreSQL.
 */
export async function benchDatabase(name: string): Promise<BenchDatabase> {
  let adminUrl = process.env.DATABASE_URL;
  let stopPg: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    const pg = await startEmbeddedPostgres({
      dataDir: path.join(PROJECT_ROOT, '.data', `bench-pg-${process.pid}`),
      port: await freePort(),
      persistent: false,
    });
    adminUrl = pg.url('postgres');
    stopPg = () => pg.stop();
  }
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = createDb({ url, poolMax: 4 });
  await migrateLatest(db);
  return {
    url,
    db,
    async close() {
      await db.destroy();
      await stopPg?.();
    },
  };
}

export async function dropDatabase(adminUrl: string, name: string) {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`drop database if exists "${name}" with (force)`);
  await c.end();
}

/**
 * After a seed, the tables as autovacuum would have left them long before they held this many rows:
 * straight after a bulk insert every read sets hint bits, the visibility map is empty and every text
 * search reads the GIN indexes' full pending lists, a different and slower table (a paced bench then
 * falls behind its rate and measures its own queue).
 */
export async function settleSeed(db: Db, tables: readonly string[] = ['transactions']): Promise<void> {
  await db.raw(`vacuum analyze ${tables.join(', ')}`);
}

/**
 * Every table vacuumed and the WAL checkpointed, so that a timed run starts from the same database as
 * the run before it: not with the dead rows of a deleted team in its event log and tags, or with the
 * last run's WAL still to write out (PostgreSQL here may run without autovacuum). A run after an
 * unsettled one measured the state it inherited: the same statements took half as long again.
 */
export async function settleDatabase(db: Db): Promise<void> {
  await db.raw('vacuum analyze');
  await db.raw('checkpoint');
}

/**
 * Deletes a team a bench run made (its rows go with it) and settles the database, so that the next
 * run starts from the same tables: ones grown by every earlier run measure the growth, not the work.
 */
export async function forgetTeam(db: Db, teamId: string): Promise<void> {
  await db('teams').where({ id: teamId }).delete();
  await forgetAuditTrails(db);
  await settleDatabase(db);
}

/**
 * The audit entries of teams that are gone. The trail outlives its team by design, and no role may
 * delete from it (audit_events_immutable), so without this every timed run left its entries behind
 * and the next one wrote into a larger table. The bench owns its database: it lifts the guard for
 * this one statement, in a transaction that puts it back.
 */
async function forgetAuditTrails(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    for (const table of ['audit_events', 'audit_checkpoints']) {
      await trx.raw(`alter table ${table} disable trigger ${table}_immutable`);
      await trx.raw(`delete from ${table} a where not exists (select 1 from teams t where t.id = a.team_id)`);
      await trx.raw(`alter table ${table} enable trigger ${table}_immutable`);
    }
  });
}

/**
 * A year of a team's spending for the read tools (chat, MCP): `rows` transactions over the last 365
 * days, in four categories, one in ten money in. Replaces what the team had; `prefix` keeps the
 * provider ids of one bench apart from another's.
 */
export async function seedSpendingYear(db: Db, teamId: string, rows: number, prefix: string): Promise<void> {
  await db('transactions').where({ teamId }).delete();
  await db('transaction_categories').where({ teamId }).delete();
  await db('transaction_categories').insert(
    ['Software', 'Travel', 'Office', 'Marketing'].map((name) => ({ teamId, name, slug: name.toLowerCase() })),
  );
  await db.raw(
    `insert into transactions (team_id, date, name, amount, currency, category_slug, provider_transaction_id, method)
     select ?, current_date - (g % 365), 'Merchant ' || (g % 500), case when g % 10 = 0 then (g % 5000) else -((g % 100000) / 100.0) end,
            'EUR', (array['software','travel','office','marketing'])[1 + g % 4], ? || g, 'card_purchase'
     from generate_series(1, ?) g`,
    [teamId, prefix, rows],
  );
  await db('teams').where({ id: teamId }).update({ baseCurrency: 'EUR' });
}
