import type { Knex } from 'knex';

/**
 * What extraction read: the document's text (so the inbox can be searched by what a receipt says,
 * not only by its merchant) and how the fields were read, for whoever checks them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table documents add column content text;
alter table inbox_items add column extraction_method text check (extraction_method in ('pdf_text','ocr','llm'));
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
alter table inbox_items drop column if exists extraction_method;
alter table documents drop column if exists content;
`);
}
