import type { Knex } from 'knex';

const WORDS = 'search_words_transactions(name, description, counterparty_name, merchant_name, note)';

/**
 * Transactions keep their words in a stored column, as documents do since 0062. Search takes its
 * candidates either from the words index or, for a word many rows hold, by walking the team's
 * newest rows and checking each; and it ranks every candidate. With only an expression index each
 * row walked or ranked had its words computed again, and a search such as "Merchant 37" (a word in
 * every row and one in one row of a hundred) walks and ranks many rows. The column is computed by the
 * same function when a row is written, in place of the index computing it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table transactions add column search_vector tsvector generated always as (${WORDS}) stored`);
  await knex.raw('drop index transactions_search_idx');
  await knex.raw('create index transactions_search_idx on transactions using gin (search_vector)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index transactions_search_idx');
  await knex.raw('alter table transactions drop column search_vector');
  await knex.raw(`create index transactions_search_idx on transactions using gin (${WORDS})`);
}
