import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Documents as a resource of their own (POST /documents), beside the receipts that already create
 * them: what processing found the file to be (`kind`), why processing failed, when it finished, and
 * the team's tags on a document. Tags are the same team tags transactions carry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table documents
  add column kind text check (kind in ('receipt','invoice','contract','other')),
  add column processing_error text,
  add column processed_at timestamptz;

create table document_tags (
  document_id uuid not null references documents(id) on delete cascade,
  tag_id uuid not null references tags(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  primary key (document_id, tag_id)
);
create index document_tags_tag_idx on document_tags (team_id, tag_id);
create index documents_team_kind_idx on documents (team_id, kind) where deleted_at is null;
`);
  await enableTeamWall(knex, 'document_tags');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'document_tags');
  await knex.raw(`
drop index if exists documents_team_kind_idx;
drop table if exists document_tags;
alter table documents drop column if exists kind, drop column if exists processing_error, drop column if exists processed_at;
`);
}
