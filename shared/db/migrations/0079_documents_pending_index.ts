import type { Knex } from 'knex';

/**
 * Every API process looks for documents left `pending` every 30 s (api/outbox/document-sweep.ts).
 * Without an index that read the whole documents table each time; this one holds only the few rows
 * still pending, so the look costs the same at 50 documents as at 5 million.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create index documents_pending_idx on documents (created_at desc) where processing_status = 'pending' and deleted_at is null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index documents_pending_idx');
}
