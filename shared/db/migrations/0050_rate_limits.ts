import type { Knex } from 'knex';

/**
 * Counters of the rate limits and brute-force guards, shared by every API process (rate-limiter-
 * flexible's PostgreSQL store). Unlogged: a crash may forget a minute of counts, and in exchange a
 * counter update writes no WAL on the request path.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create unlogged table rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
create index rate_limits_expire_idx on rate_limits (expire);
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists rate_limits');
}
