import type { Knex } from 'knex';

/**
 * Phrases in document text, found by the index instead of by reading documents. A GIN index keeps
 * which documents hold a word, not where: for `"lease clause 123"` PostgreSQL had to read and check
 * the positions of every document holding all three words (a third of them in bench/search.ts),
 * even to find none. Each document now also keeps its shingles, every two and three words that stand
 * next to each other ("lease clause", "lease clause 123"), in a GIN-indexed column the database
 * maintains; a phrase's shingles narrow the documents to those that can hold it, and only those are
 * checked word by word.
 *
 * The price: the shingles index is several times the size of the words index, and writing a
 * document's text costs more, in proportion to its length. Transactions, customers and the rest keep
 * only their words: their text is a few short fields, cheap to check.
 */
export async function up(knex: Knex): Promise<void> {
  // Words ordered by position; a pair or triple only where positions follow on (words past a
  // tsvector's last position, 16,383, share it and form none, as phrase matching also finds none there).
  await knex.raw(`create function word_shingles(words tsvector) returns tsvector
    language plpgsql immutable strict parallel safe as $$
    declare
      ws text[];
      ps int[];
      n int;
      shingles text[] := '{}';
    begin
      select array_agg(t.lexeme order by p), array_agg(p::int order by p) into ws, ps
        from unnest(words) t, unnest(t.positions) p;
      n := coalesce(array_length(ws, 1), 0);
      for i in 1 .. n - 1 loop
        if ps[i + 1] = ps[i] + 1 then
          shingles := shingles || (ws[i] || ' ' || ws[i + 1]);
          if i + 2 <= n and ps[i + 2] = ps[i] + 2 then
            shingles := shingles || (ws[i] || ' ' || ws[i + 1] || ' ' || ws[i + 2]);
          end if;
        end if;
      end loop;
      return array_to_tsvector(shingles);
    end $$`);
  // A phrase's shingles as one query (all of them); null for a phrase of one word, which has none.
  await knex.raw(`create function phrase_shingles_query(phrase text) returns tsquery
    language sql immutable strict parallel safe as $$
      select nullif(array_to_string(array(
               select '''' || replace(replace(s, '\\', '\\\\'), '''', '''''') || ''''
                 from unnest(tsvector_to_array(word_shingles(to_tsvector('simple'::regconfig, phrase)))) s), ' & '), '')::tsquery
    $$`);
  await knex.raw(
    `alter table documents add column search_shingles tsvector
       generated always as (word_shingles(search_words_documents(name, title, content))) stored`,
  );
  await knex.raw('create index documents_search_shingles_idx on documents using gin (search_shingles)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table documents drop column search_shingles');
  await knex.raw('drop function phrase_shingles_query(text)');
  await knex.raw('drop function word_shingles(tsvector)');
}
