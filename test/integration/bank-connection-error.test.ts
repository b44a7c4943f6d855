import { BankConnection } from '../../shared/db/models';
import { markDisconnected, markReconnected } from '../../shared/domain/bank-connections/status';
import { markSynced } from '../../shared/domain/bank-connections/sync';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

/**
 * A connection's error is its disconnection's: set with the status when the bank reports a broken
 * login, cleared with it on reconnection. A sync pass that ends after the report (it was already
 * running when the bank's webhook came) must not clear it.
 */
const tdb = withTestDatabase();

it('a pass that ends after the bank reported a broken login leaves the connection disconnected with its reason', async () => {
  const { team } = await createTeamAndOwner(tdb.db, 'Broken login');
  const conn = await BankConnection.query(tdb.db).insert({ teamId: team.id, provider: 'bank-a', referenceId: 'item-broken-login' });
  const state = () => BankConnection.query(tdb.db).findById(conn.id).select('status', 'errorCode', 'errorMessage', 'lastSyncedAt');

  await markDisconnected(tdb.db, conn, { code: 'ITEM_LOGIN_REQUIRED', message: 'Log in again' });
  await markSynced(tdb.db, conn.id);
  const after = await state();
  expect(after).toMatchObject({ status: 'disconnected', errorCode: 'ITEM_LOGIN_REQUIRED', errorMessage: 'Log in again' });
  expect(after?.lastSyncedAt).toBeInstanceOf(Date);

  expect(await markReconnected(tdb.db, conn)).toBe(true);
  expect(await state()).toMatchObject({ status: 'connected', errorCode: null, errorMessage: null });
});
