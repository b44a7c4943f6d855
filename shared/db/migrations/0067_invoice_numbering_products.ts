import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Per-team invoice numbering (a prefix, and a next number to start from) and products: saved line
 * items with a price, unit and tax that invoices are filled from.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table teams add column invoice_prefix text not null default 'INV-' check (char_length(invoice_prefix) <= 20);
alter table teams add column invoice_next_number integer check (invoice_next_number between 1 and 999999999);

create table invoice_products (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  name text not null,
  description text,
  price numeric(19,4) not null,
  currency char(3),
  unit text,
  vat_rate numeric(5,2),
  tax_rate numeric(5,2),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index invoice_products_name_idx on invoice_products (team_id, lower(name));
create index invoice_products_team_id_idx on invoice_products (team_id, created_at desc, id desc);
`);
  await enableTeamWall(knex, 'invoice_products');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'invoice_products');
  await knex.raw(`
drop table if exists invoice_products;
alter table teams drop column invoice_next_number;
alter table teams drop column invoice_prefix;
`);
}
