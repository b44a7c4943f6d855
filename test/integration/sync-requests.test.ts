import { BankConnection } from '../../shared/db/models';
import {
  countSyncRequest,
  dropSyncLease,
  leaseSyncRequests,
  releaseSyncLease,
  requestedSince,
} from '../../shared/domain/bank-connections/sync-requests';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

/**
 * The lease a SyncConnection run holds on its connection's requests: whether a bank webhook must
 * signal, or is seen by the run that holds it, in every order a request and the run's steps can come.
 */
const tdb = withTestDatabase();

async function connection() {
  const owner = await createTeamAndOwner(tdb.db, 'Lease');
  const conn = await BankConnection.query(tdb.db).insert({ teamId: owner.team.id, provider: 'bank-a', referenceId: `item-${Date.now()}` });
  return conn.id;
}

describe('sync requests and the lease', () => {
  it('a request without a run signals; one during a pass is seen by it; the lease goes back only when all were seen', async () => {
    const id = await connection();
    expect(await countSyncRequest(tdb.db, id)).toBe(false);
    const seen = await leaseSyncRequests(tdb.db, id);
    expect(seen).toBe(1);
    expect(await requestedSince(tdb.db, id, seen)).toBe(false);

    expect(await countSyncRequest(tdb.db, id)).toBe(true);
    expect(await requestedSince(tdb.db, id, seen)).toBe(true);
    // A request after the pass and before the release: refused, the lease kept, another pass due.
    expect(await releaseSyncLease(tdb.db, id)).toBe(false);
    expect(await countSyncRequest(tdb.db, id)).toBe(true);

    const again = await leaseSyncRequests(tdb.db, id);
    expect(again).toBe(3);
    expect(await releaseSyncLease(tdb.db, id)).toBe(true);
    expect(await countSyncRequest(tdb.db, id)).toBe(false);
  });

  it('a lease that lapsed (its run died) or was dropped (the connection was disconnected) no longer holds requests back', async () => {
    const id = await connection();
    await leaseSyncRequests(tdb.db, id);
    await tdb
      .db('bank_connection_sync_requests')
      .where({ connectionId: id })
      .update({ leaseUntil: tdb.db.raw(`now() - interval '1 second'`) });
    expect(await countSyncRequest(tdb.db, id)).toBe(false);

    await leaseSyncRequests(tdb.db, id);
    expect(await countSyncRequest(tdb.db, id)).toBe(true);
    await dropSyncLease(tdb.db, id);
    expect(await countSyncRequest(tdb.db, id)).toBe(false);
  });

  it('a first pass with no request counted yet leases from zero, and a deleted connection takes its row with it', async () => {
    const id = await connection();
    expect(await leaseSyncRequests(tdb.db, id)).toBe(0);
    expect(await releaseSyncLease(tdb.db, id)).toBe(true);
    await BankConnection.query(tdb.db).deleteById(id);
    expect(await tdb.db('bank_connection_sync_requests').where({ connectionId: id }).first()).toBeUndefined();
  });
});
