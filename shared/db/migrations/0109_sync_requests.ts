import type { Knex } from 'knex';

/**
 * The sync requests of a connection, counted, and the lease of the SyncConnection run working on
 * them (shared/domain/bank-connections/sync-requests.ts). A bank webhook for a connection whose run
 * holds the lease only counts itself here: the run sees the count move and makes another pass.
 * Only a connection without a live lease is signalled, so a bank's sustained webhooks cost the run
 * passes, not a signal, an event and a workflow task each.
 *
 * Keyed by the connection and deleted with it; no `team_id`: it is the run's bookkeeping, read and
 * written by connection id alone, and audited nowhere (the syncs it leads to are).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table bank_connection_sync_requests (
      connection_id uuid primary key references bank_connections (id) on delete cascade,
      requests bigint not null default 0,
      seen bigint not null default 0,
      lease_until timestamptz
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table bank_connection_sync_requests');
}
