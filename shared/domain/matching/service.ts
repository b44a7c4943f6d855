import type { Db } from '../../db/knex';
import { bestMatch, type ReceiptForMatch, type TransactionForMatch } from './score';

/** The team's transactions that could be this receipt: similar amount, within the date window, not hidden. */
export async function candidatesFor(db: Db, teamId: string, r: ReceiptForMatch): Promise<TransactionForMatch[]> {
  if (r.amount === null || r.amount <= 0) return [];
  const q = db('transactions')
    .where({ teamId })
    .whereNotIn('status', ['excluded', 'archived'])
    .whereRaw('abs(amount) between ? and ?', [r.amount * 0.9, r.amount * 1.1])
    .select('id', 'amount', 'currency', 'date', 'name', 'merchantName', 'counterpartyName')
    .limit(500);
  if (r.date) q.whereRaw('date between ?::date - 30 and ?::date + 30', [r.date, r.date]);
  return q;
}

export async function findBestMatch(db: Db, teamId: string, r: ReceiptForMatch) {
  return bestMatch(r, await candidatesFor(db, teamId, r));
}
