import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Statement files imported into a bank account (CSV, OFX, CAMT.053), one row per import with its
 * status and counts. An imported transaction carries the hash of its row (account, date, amount,
 * description and which of identical rows it is), unique per team: importing the same file again
 * inserts nothing, and the database, not a read before the write, decides what is a duplicate.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table imports (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  bank_account_id uuid not null references bank_accounts(id) on delete cascade,
  format text not null check (format in ('csv', 'ofx', 'camt053')),
  file_name text not null,
  file_size integer not null,
  storage_key text not null,
  mapping jsonb,
  status text not null default 'pending' check (status in ('pending', 'validating', 'importing', 'completed', 'failed')),
  rows_read integer not null default 0,
  created_count integer not null default 0,
  skipped_count integer not null default 0,
  errors jsonb not null default '[]',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz
);
create index imports_team_created_idx on imports (team_id, created_at desc, id desc);

-- A uuid, not text: 16 bytes compared bytewise keep the unique index cheap on a 100,000-row insert.
alter table transactions add column import_hash uuid;
create unique index transactions_team_import_hash_idx on transactions (team_id, import_hash);
`);
  await enableTeamWall(knex, 'imports');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'imports');
  await knex.raw(`
drop index if exists transactions_team_import_hash_idx;
alter table transactions drop column import_hash;
drop table if exists imports;
`);
}
