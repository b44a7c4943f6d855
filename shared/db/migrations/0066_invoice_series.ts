import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Recurring invoices: a series holds the template (customer, currency, lines, note) and the rhythm;
 * a Temporal schedule per series issues the next invoice each period. Each invoice names its series
 * and the scheduled moment it was issued for, unique together, so a retried run issues nothing twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table invoice_series (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  customer_id uuid not null references customers(id) on delete restrict,
  name text not null,
  currency char(3) not null,
  line_items jsonb not null,
  discount numeric(19,4) not null default 0,
  note text,
  frequency text not null check (frequency in ('weekly', 'monthly', 'quarterly', 'yearly')),
  start_date date not null,
  end_after smallint check (end_after between 1 and 1000),
  end_date date,
  due_in_days smallint not null default 30 check (due_in_days between 0 and 365),
  delivery text not null default 'email' check (delivery in ('email', 'finalize')),
  status text not null default 'active' check (status in ('active', 'paused', 'ended')),
  issued_count integer not null default 0,
  last_issued_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index invoice_series_team_id_idx on invoice_series (team_id, created_at desc, id desc);

alter table invoices add column series_id uuid references invoice_series(id) on delete set null;
alter table invoices add column series_period timestamptz;
create unique index invoices_series_period_idx on invoices (series_id, series_period) where series_id is not null;
`);
  await enableTeamWall(knex, 'invoice_series');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'invoice_series');
  await knex.raw(`
drop index if exists invoices_series_period_idx;
alter table invoices drop column series_period;
alter table invoices drop column series_id;
drop table if exists invoice_series;
`);
}
