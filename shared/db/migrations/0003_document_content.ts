import type { Knex } from 'knex';

/**
 * What extraction read: the document's text (so the inbox can be searched by what a receipt says,
 * not only by its merchant), how the fields were read, for whoever checks them, and the sender's
 * note (a chat caption such as "team lunch").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table documents add column content text;
alter table inbox_items add column extraction_method text check (extraction_method in ('pdf_text','ocr','llm'));
alter table inbox_items add column note text;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
alter table inbox_items drop column if exists note;
alter table inbox_items drop column if exists extraction_method;
alter table documents drop column if exists content;
`);
}
