import type { Db } from '../../db/knex';

/**
 * A connection's sync requests and the lease of the run that works on them (migration 0109).
 *
 * A run takes the lease at the start of each pass and notes how many requests it has seen; a request
 * made while the lease holds is only counted, and the run, finding the count moved at the end of its
 * pass, makes another. The run gives the lease back only when nothing was asked since (one
 * statement, so a request either lands before it, and is seen, or after it, and signals). A run that
 * died holding it stops counting for it once it lapses: requests signal again, as without it.
 */

/** Longer than a pass and its follow-ups take; a pass longer than this only costs signals. */
const LEASE_S = 120;

/** Counts a request; true when a run holds the lease and will see it, false when it must be signalled. */
export async function countSyncRequest(db: Db, connectionId: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { leased: boolean | null }[] }>(
    `insert into bank_connection_sync_requests as r (connection_id, requests) values (?, 1)
     on conflict (connection_id) do update set requests = r.requests + 1
     returning r.lease_until > now() as leased`,
    [connectionId],
  );
  return rows.at(0)?.leased === true;
}

/** A pass starts: the run holds the lease, and has seen every request so far. Returns how many. */
export async function leaseSyncRequests(db: Db, connectionId: string): Promise<number> {
  const { rows } = await db.raw<{ rows: { seen: number }[] }>(
    `insert into bank_connection_sync_requests as r (connection_id, lease_until) values (?, now() + make_interval(secs => ?))
     on conflict (connection_id) do update set seen = r.requests, lease_until = excluded.lease_until
     returning r.seen`,
    [connectionId, LEASE_S],
  );
  return rows[0].seen;
}

/** Whether a request was counted after the pass that saw `seen` started. */
export async function requestedSince(db: Db, connectionId: string, seen: number): Promise<boolean> {
  const row = await db('bank_connection_sync_requests').where({ connectionId }).first<{ requests: number } | undefined>('requests');
  return row !== undefined && row.requests > seen;
}

/** The run ends: the lease goes unless a request came since its last pass (false: make another pass). */
export async function releaseSyncLease(db: Db, connectionId: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { requests: number; seen: number }[] }>(
    `update bank_connection_sync_requests set lease_until = case when requests = seen then null else lease_until end
      where connection_id = ? returning requests, seen`,
    [connectionId],
  );
  const row = rows.at(0);
  return row === undefined || row.requests === row.seen;
}

/** A run that cannot go on (the connection was disconnected) gives the lease back whatever was asked. */
export async function dropSyncLease(db: Db, connectionId: string): Promise<void> {
  await db('bank_connection_sync_requests').where({ connectionId }).update({ leaseUntil: null });
}
