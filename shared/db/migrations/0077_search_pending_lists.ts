import type { Knex } from 'knex';

/**
 * A GIN index takes new rows into an unsorted pending list (4 MB by default) and merges it into the
 * tree later; every search reads that list whole. bench/search.ts found customers' words index with
 * all its rows still pending, read whole by every search to find nothing. The tables written rarely
 * and in small numbers get a short list (the merge then runs more often, on fewer rows). Transactions
 * keep the default: a sync or an import writes thousands at once, and a longer list is what keeps
 * those inserts cheap.
 */
const RARELY_WRITTEN = [
  'customers_search_idx',
  'customers_name_trgm_idx',
  'invoices_search_idx',
  'invoices_name_trgm_idx',
  'documents_search_idx',
  'documents_name_trgm_idx',
  'documents_search_shingles_idx',
  'inbox_items_search_idx',
  'inbox_items_name_trgm_idx',
  'tracker_projects_search_idx',
  'tracker_projects_name_trgm_idx',
];

export async function up(knex: Knex): Promise<void> {
  for (const index of RARELY_WRITTEN) await knex.raw('alter index ?? set (gin_pending_list_limit = 256)', [index]);
}

export async function down(knex: Knex): Promise<void> {
  for (const index of RARELY_WRITTEN) await knex.raw('alter index ?? reset (gin_pending_list_limit)', [index]);
}
