import type { Knex } from 'knex';

/**
 * Categories asked of the language model (shared/domain/learned-categories/llm.ts): a transaction
 * inserted from now on awaits the model until it has been asked once. The rows already there are
 * added as asked (the column's first default), so configuring a model later does not send a team's
 * whole uncategorised history to it; the partial index holds only the rows still to ask.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table transactions add column awaits_llm_category boolean not null default false;
alter table transactions alter column awaits_llm_category set default true;
create index transactions_awaits_llm_category_idx on transactions (team_id, created_at desc)
  where awaits_llm_category and category_slug is null;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
drop index if exists transactions_awaits_llm_category_idx;
alter table transactions drop column awaits_llm_category;
`);
}
