import type { Knex } from 'knex';

/** The team's logo for its invoices: an uploaded image document (never fetched from a URL at render time). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table teams add column logo_document_id uuid references documents(id) on delete set null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table teams drop column logo_document_id`);
}
