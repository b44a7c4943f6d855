import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * The team's event log behind GET /events: every event the service emits, written in the transaction
 * of the change whether or not a webhook endpoint listens, with the exact JSON text webhooks send.
 *
 * `xid` is the writing transaction's id and `seq` the order within it; the feed is read in
 * (xid, seq) order and serves only transactions older than the reader's snapshot xmin
 * (shared/domain/events/service.ts explains why a sequence alone would let a reader skip a row).
 * `created_at` is when the event was written, for the retention sweep; BRIN, since rows arrive in
 * time order and the sweep only ever asks for the oldest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table events (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  xid xid8 not null default pg_current_xact_id(),
  seq bigint generated always as identity,
  type text not null,
  payload text not null,
  created_at timestamptz not null default clock_timestamp()
);
create index events_feed_idx on events (team_id, xid, seq);
create index events_created_idx on events using brin (created_at);
`);
  await enableTeamWall(knex, 'events');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'events');
  await knex.raw('drop table if exists events');
}
