import type { Knex } from 'knex';
import { functionSchemas } from './0081_transaction_week_trigrams';

/**
 * Migration 0081's key function, same keys in the same order, computed for a fraction of the cost.
 * Every row written to `transactions` calls it for the week trigram index, and as an SQL function
 * with a subquery it ran an executor of its own per call and rebuilt the `<team>:<week>:` prefix for
 * each trigram: a large share of an import's database time. A PL/pgSQL loop over the trigrams makes
 * the prefix once. The keys are equal for every input (test/integration/week-trigram-keys.test.ts
 * compares the two), so the index built by the old function stays valid and is not rebuilt.
 */
export async function up(knex: Knex): Promise<void> {
  const { own, trgm } = await functionSchemas(knex);
  await knex.raw(
    `create or replace function transaction_week_trigrams(team uuid, day date, name text, description text, counterparty text, merchant text)
       returns text[] language plpgsql immutable parallel unsafe
       as $$
       declare
         prefix constant text := left(team::text, 8) || ':' || floor((day - date '1970-01-05') / 7.0)::int || ':';
         trigram text;
         keys text[] := '{}';
       begin
         foreach trigram in array ${trgm}.show_trgm(${own}.transaction_text(name, description, counterparty, merchant)) loop
           if position(' ' in trigram) = 0 then
             keys := keys || (prefix || trigram);
           end if;
         end loop;
         return keys;
       end $$`,
  );
}

export async function down(knex: Knex): Promise<void> {
  const { own, trgm } = await functionSchemas(knex);
  await knex.raw(
    `create or replace function transaction_week_trigrams(team uuid, day date, name text, description text, counterparty text, merchant text)
       returns text[] language sql immutable parallel unsafe
       as $$ select array(select left(team::text, 8) || ':' || floor((day - date '1970-01-05') / 7.0)::int || ':' || t
                            from unnest(${trgm}.show_trgm(${own}.transaction_text(name, description, counterparty, merchant))) t
                           where position(' ' in t) = 0) $$`,
  );
}
