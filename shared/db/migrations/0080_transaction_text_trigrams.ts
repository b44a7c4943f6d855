import type { Knex } from 'knex';

/**
 * The list's `q=` matches any of four columns literally (ILIKE). Only the name had a trigram index,
 * so a text search walked the team's rows newest first and checked each: a word in one row of 450
 * meant walking some 450 rows for each row of a page, and a large team fell behind under load. One
 * trigram index over the four columns joined by a newline narrows the rows first; the list then
 * checks each column exactly, so a match never spans two fields. It replaces the name's trigram
 * index rather than joining it: search's partial-word candidates read it as well (word similarity
 * over the four columns rather than the name alone; ranking still compares the name), and every index
 * on transactions is paid for by each synced or imported row.
 */
const TEXT = 'transaction_text(name, description, counterparty_name, merchant_name)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create function transaction_text(name text, description text, counterparty text, merchant text)
       returns text language sql immutable parallel safe
       as $$ select coalesce(name, '') || E'\\n' || coalesce(description, '') || E'\\n' || coalesce(counterparty, '') || E'\\n' || coalesce(merchant, '') $$`,
  );
  await knex.raw('drop index transactions_name_trgm_idx');
  await knex.raw(`create index transactions_text_trgm_idx on transactions using gin (team_id, ${TEXT} gin_trgm_ops)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index transactions_text_trgm_idx');
  await knex.raw('create index transactions_name_trgm_idx on transactions using gin (team_id, name gin_trgm_ops)');
  await knex.raw('drop function transaction_text');
}
