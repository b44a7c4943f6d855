import type { Db } from '../../db/knex';
import type { BankConnection } from '../../db/models';
import { notify } from '../notifications/service';
import { deleteAnnounced } from '../transactions/service';

/**
 * A connection's pending transactions the bank never booked (those the team excluded too: a purchase
 * that never happened is gone either way): those dated more than `maxAgeDays`
 * ago are removed (announced as `transaction.deleted`), and the team gets one notice naming how
 * many, in the same transaction, so a retried pass finds nothing left and says nothing twice.
 * Returns how many went.
 */
export async function expireStalePending(
  db: Db,
  conn: Pick<BankConnection, 'id' | 'teamId' | 'institutionName'>,
  maxAgeDays: number,
): Promise<number> {
  return db.transaction(async (trx) => {
    const stale = await trx('transactions as t')
      .join('bank_accounts as a', 'a.id', 't.bank_account_id')
      .where({ 't.teamId': conn.teamId, 'a.bankConnectionId': conn.id, 't.pending': true })
      .whereNotNull('t.providerTransactionId')
      .whereRaw('t.date < current_date - ?::int', [maxAgeDays])
      .forUpdate('t')
      .select<{ id: string; name: string; amount: string; currency: string; date: string }[]>(
        't.id',
        't.name',
        't.amount',
        't.currency',
        trx.raw(`to_char(t.date, 'YYYY-MM-DD') as date`),
      );
    if (!stale.length) return 0;
    await deleteAnnounced(
      trx,
      conn.teamId,
      stale.map((s) => s.id),
    );
    await notify(trx, {
      teamId: conn.teamId,
      type: 'pending_transactions_expired',
      metadata: {
        connectionId: conn.id,
        institutionName: conn.institutionName,
        count: stale.length,
        maxAgeDays,
        transactions: stale.slice(0, 20).map((s) => ({ name: s.name, date: s.date, amount: Number(s.amount), currency: s.currency })),
      },
    });
    return stale.length;
  });
}
