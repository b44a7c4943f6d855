import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';
import { auditTable } from './0088_audit_trail';

/**
 * Merged transactions: a booked transaction that replaced its pending one, or a duplicate (a manual
 * entry, an imported row) that a synced one replaced. The merged-away row is deleted, and its
 * snapshot kept here with what the merge moved onto the survivor (tags, attachments, inbox and
 * invoice links, the fields it carried over), so an unmerge restores both exactly.
 *
 * `survivor_id` has no foreign key on purpose: a survivor may itself be merged away later, and its own
 * merges must outlive it in the snapshot chain rather than cascade with it.
 *
 * On imports: how many rows matched a transaction the account already had (and so were not created).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table transaction_merges (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  survivor_id uuid not null,
  merged_id uuid not null,
  reason text not null check (reason in ('booked', 'duplicate')),
  snapshot jsonb not null,
  created_at timestamptz not null default now()
);
create index transaction_merges_survivor_idx on transaction_merges (team_id, survivor_id, created_at desc);
create unique index transaction_merges_merged_idx on transaction_merges (team_id, merged_id);

alter table imports add column matched_count integer not null default 0;

-- What a sync page and an import batch compare new rows with: the rows no provider id identifies
-- (entered by hand, imported) and the pending ones. Partial, so a team of a million synced rows
-- has small indexes here and a page's look-up reads only its candidates.
create index transactions_without_provider_idx on transactions (team_id, date) where provider_transaction_id is null;
create index transactions_pending_idx on transactions (team_id, date) where status = 'pending';
`);
  await enableTeamWall(knex, 'transaction_merges');
  await auditTable(knex, 'transaction_merges');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'transaction_merges');
  await knex.raw('drop table transaction_merges');
  await knex.raw('drop index transactions_without_provider_idx');
  await knex.raw('drop index transactions_pending_idx');
  await knex.raw('alter table imports drop column matched_count');
}
