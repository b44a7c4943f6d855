import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Public invoice links (`/i/:token`): only the token's hash is kept, one live link per invoice
 * (making a new one revokes the old), and the first view of each day is recorded, its time also on
 * the invoice (`viewed_at`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table invoice_links (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  invoice_id uuid not null references invoices(id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create unique index invoice_links_live_idx on invoice_links (invoice_id) where revoked_at is null;
create index invoice_links_team_id_idx on invoice_links (team_id);

create table invoice_views (
  team_id uuid not null references teams(id) on delete cascade,
  invoice_id uuid not null references invoices(id) on delete cascade,
  day date not null,
  viewed_at timestamptz not null default now(),
  primary key (invoice_id, day)
);
create index invoice_views_team_id_idx on invoice_views (team_id);

alter table invoices add column viewed_at timestamptz;
`);
  await enableTeamWall(knex, 'invoice_links');
  await enableTeamWall(knex, 'invoice_views');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'invoice_views');
  await disableTeamWall(knex, 'invoice_links');
  await knex.raw(`
alter table invoices drop column viewed_at;
drop table if exists invoice_views;
drop table if exists invoice_links;
`);
}
