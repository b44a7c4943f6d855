import type { Knex } from 'knex';

/**
 * Reference exchange rates (public data, shared by every team): `1 base = rate quote` on a day.
 * Receipts in another currency than their transaction are matched by converted amount.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table exchange_rates (
  base char(3) not null,
  quote char(3) not null,
  date date not null,
  rate numeric(19,10) not null check (rate > 0),
  source text not null,
  updated_at timestamptz not null default now(),
  primary key (base, quote, date)
);
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists exchange_rates');
}
