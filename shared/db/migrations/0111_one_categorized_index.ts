import type { Knex } from 'knex';

/**
 * One index of categorised transactions instead of two. 0099 made `transactions_categorized_idx`
 * (team, date) for the learner's newest choices and `transactions_categorized_by_idx` (team, how the
 * category was set, date) for `GET /transactions?categorizedBy=`, both over the same rows, so every
 * categorised row was written to both. The learner reads the choices it learns from (by a user, by a
 * rule, or from before sources were recorded) as one newest-first range of the second index per
 * source, merged (shared/domain/learned-categories/apply.ts, loadModel).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists transactions_categorized_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create index transactions_categorized_idx on transactions (team_id, date desc, id desc) where category_slug is not null');
}
