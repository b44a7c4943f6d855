import type { Db } from '../../db/knex';
import { BankConnection } from '../../db/models';
import { notify } from '../notifications/service';
import { emitEvent } from '../webhook-endpoints/events';

type Connection = Pick<BankConnection, 'id' | 'teamId' | 'institutionName'>;

/**
 * The connection is broken (the bank's webhook says so, or the bank refused our token during a sync).
 * The team hears it once per break: the status changes under a row lock, and only the change notifies.
 */
export async function markDisconnected(db: Db, conn: Connection, error: { code: string; message: string | null }): Promise<void> {
  await db.transaction(async (trx) => {
    const before = await BankConnection.query(trx).findById(conn.id).forUpdate().select('status', 'provider');
    if (!before) return;
    await BankConnection.query(trx).findById(conn.id).patch({
      status: 'disconnected',
      errorCode: error.code,
      errorMessage: error.message,
      lastErrorCode: error.code,
      lastErrorMessage: error.message,
      lastErrorAt: new Date(),
      updatedAt: new Date(),
    });
    if (before.status === 'disconnected') return;
    await notify(trx, {
      teamId: conn.teamId,
      type: 'bank_connection_disconnected',
      priority: 2,
      metadata: { connectionId: conn.id, institutionName: conn.institutionName, code: error.code, reason: error.message },
    });
    await emitEvent(trx, conn.teamId, 'bank_connection.disconnected', {
      connectionId: conn.id,
      provider: before.provider,
      institutionName: conn.institutionName,
      code: error.code,
      reason: error.message,
    });
  });
}

/** The bank says the connection works again; the team hears it when it was broken. Returns whether it was. */
export async function markReconnected(db: Db, conn: Connection): Promise<boolean> {
  return db.transaction(async (trx) => {
    const before = await BankConnection.query(trx).findById(conn.id).forUpdate().select('status', 'provider');
    if (!before) return false;
    await BankConnection.query(trx)
      .findById(conn.id)
      .patch({ status: 'connected', errorCode: null, errorMessage: null, updatedAt: new Date() });
    if (before.status !== 'disconnected') return false;
    await notify(trx, {
      teamId: conn.teamId,
      type: 'bank_connection_reconnected',
      metadata: { connectionId: conn.id, institutionName: conn.institutionName },
    });
    await emitEvent(trx, conn.teamId, 'bank_connection.connected', {
      connectionId: conn.id,
      provider: before.provider,
      institutionName: conn.institutionName,
    });
    return true;
  });
}
