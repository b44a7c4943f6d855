import type { Knex } from 'knex';

/**
 * Learned categories (shared/domain/learned-categories): the team's threshold from which a learned
 * category is applied rather than suggested; the suggestion a transaction carries below it; the
 * index the learner reads the team's past choices through, newest first (a team that categorised
 * nothing costs one probe per sync page); and the index of `GET /transactions?categorizedBy=`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table teams add column learned_category_threshold double precision not null default 0.85
  check (learned_category_threshold >= 0 and learned_category_threshold <= 1);
alter table transactions add column suggested_category jsonb;
create index transactions_categorized_idx on transactions (team_id, date desc, id desc) where category_slug is not null;
create index transactions_categorized_by_idx on transactions (team_id, (field_sources #>> '{categorySlug,by}'), date desc, id desc)
  where category_slug is not null;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
drop index if exists transactions_categorized_by_idx;
drop index if exists transactions_categorized_idx;
alter table transactions drop column suggested_category;
alter table teams drop column learned_category_threshold;
`);
}
