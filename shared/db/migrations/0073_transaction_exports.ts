import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Transaction exports (POST /transactions/export): what was asked (filters, formats, the accountant's
 * address), where the ExportTransactions run is (status, rows written) and what it made (the ZIP,
 * kept as a document). `notified_at` and `emailed_at` make the notice and the mail once-only across
 * worker restarts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table exports (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  requested_by uuid references users(id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'running', 'completed', 'failed')),
  filters jsonb not null,
  formats text[] not null,
  email text,
  rows_written integer not null default 0,
  receipts_written integer not null default 0,
  receipts_missing integer not null default 0,
  document_id uuid references documents(id) on delete set null,
  error text,
  notified_at timestamptz,
  emailed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz
);
create index exports_team_idx on exports (team_id, created_at desc, id desc);
create index exports_document_idx on exports (document_id) where document_id is not null;
`);
  await enableTeamWall(knex, 'exports');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'exports');
  await knex.raw('drop table if exists exports');
}
