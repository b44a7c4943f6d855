import type { Knex } from 'knex';

/**
 * The list's `q=` wants a team's newest 50 matches. The trigram index of 0080 answers "which rows
 * match" for the whole table: for a word in one row of 450, a 10,000,000-row team gets 22,000 rows
 * back, each read from the heap for its date only to be sorted away, and the team's own posting
 * list, as long as the team, is read beside it.
 *
 * This index keys each trigram by team and week: `<team 8 hex>:<week>:<trigram>`. The list asks
 * for the newest weeks first and widens until it has a page (shared/domain/transactions/
 * week-probe.ts), so it reads the matches of a few weeks of one team, whatever the team's size or
 * the table's. Trigrams holding a space (a word's padded start and end) are left out: a search
 * for part of a word cannot use them, and they are a third of a row's trigrams. Multibyte
 * trigrams, which pg_trgm shows as a hash, are kept, since their padding cannot be told.
 *
 * The function is declared parallel unsafe, though it is safe, so that no query calling it plans
 * workers: PostgreSQL has no way to know how few rows a team's week keys hold (it took a small
 * team's weeks for millions of rows), and starting workers costs far more than reading a few rows.
 */
export async function up(knex: Knex): Promise<void> {
  const { own, trgm } = await functionSchemas(knex);
  await knex.raw(
    `create function transaction_week_trigrams(team uuid, day date, name text, description text, counterparty text, merchant text)
       returns text[] language sql immutable parallel unsafe
       as $$ select array(select left(team::text, 8) || ':' || floor((day - date '1970-01-05') / 7.0)::int || ':' || t
                            from unnest(${trgm}.show_trgm(${own}.transaction_text(name, description, counterparty, merchant))) t
                           where position(' ' in t) = 0) $$`,
  );
  await knex.raw(
    `create index transactions_week_trigrams_idx on transactions
       using gin (transaction_week_trigrams(team_id, date, name, description, counterparty_name, merchant_name))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index transactions_week_trigrams_idx');
  await knex.raw('drop function transaction_week_trigrams');
}

/**
 * Where our functions and pg_trgm's live, for function bodies to name: PostgreSQL 17 and later build
 * an index with search_path set to pg_catalog only, and a function's body is resolved when it runs.
 */
export async function functionSchemas(knex: Knex): Promise<{ own: string; trgm: string }> {
  const { rows } = await knex.raw<{ rows: { own: string; trgm: string }[] }>(
    `select quote_ident(current_schema()) as own, (select extnamespace::regnamespace::text from pg_extension where extname = 'pg_trgm') as trgm`,
  );
  return rows[0];
}
