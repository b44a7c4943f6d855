import type { Knex } from 'knex';

/**
 * What GET /search reads, kept by the database itself. For each searchable table an immutable SQL
 * function builds its words from its columns (the 'simple' configuration: names and words in any
 * language, no stemming), and a GIN index on that function keeps them; trigram indexes on the names
 * find partial words and typos. Both lead with team_id (btree_gin): a search reads only the caller's
 * team. An expression index rather than a stored column: `select *` and the models stay as they were.
 * The search service calls each function with the same columns, which is how PostgreSQL matches the index.
 */
export const SEARCHABLE = [
  { table: 'transactions', columns: ['name', 'description', 'counterparty_name', 'merchant_name', 'note'], name: 'name' },
  { table: 'customers', columns: ['name', 'email', 'contact', 'city', 'vat_number', 'note'], name: 'name' },
  { table: 'invoices', columns: ['invoice_number', 'payment_reference', 'note'], name: 'invoice_number' },
  { table: 'documents', columns: ['name', 'title', 'content'], name: 'name' },
  { table: 'inbox_items', columns: ['display_name', 'file_name', 'sender', 'note'], name: 'display_name' },
  { table: 'tracker_projects', columns: ['name', 'description'], name: 'name' },
] as const;

const fn = (table: string) => `search_words_${table}`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw('create extension if not exists btree_gin');
  for (const { table, columns, name } of SEARCHABLE) {
    const params = columns.map((_, i) => `c${i + 1} text`).join(', ');
    // A tsvector holds at most 1 MB: long extracted text is indexed up to its first 200,000 characters.
    const words = columns.map((_, i) => `left(coalesce(c${i + 1}, ''), 200000)`).join(` || ' ' || `);
    await knex.raw(
      `create function ${fn(table)}(${params}) returns tsvector language sql immutable parallel safe
         as $$ select to_tsvector('simple'::regconfig, ${words}) $$`,
    );
    await knex.raw(`create index ?? on ?? using gin (team_id, ${fn(table)}(${columns.map((c) => `"${c}"`).join(', ')}))`, [
      `${table}_search_idx`,
      table,
    ]);
    await knex.raw(`create index ?? on ?? using gin (team_id, ?? gin_trgm_ops)`, [`${table}_name_trgm_idx`, table, name]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of SEARCHABLE) {
    await knex.raw('drop index if exists ??', [`${table}_name_trgm_idx`]);
    await knex.raw('drop index if exists ??', [`${table}_search_idx`]);
    await knex.raw(`drop function if exists ${fn(table)}`);
  }
}
