import type { Db } from '../../db/knex';
import { Transaction } from '../../db/models';
import { convert, ratesOn, type Rates } from '../exchange-rates/service';
import { bestMatch, type ReceiptForMatch, type TransactionForMatch } from './score';

/**
 * The team's transactions that could be this receipt: within the date window, not hidden, and with
 * a similar amount, in the receipt's currency or, converted at the day's rate, in any other.
 */
export async function candidatesFor(db: Db, teamId: string, r: ReceiptForMatch, rates: Rates): Promise<TransactionForMatch[]> {
  if (r.amount === null || r.amount <= 0) return [];
  const amount = r.amount;
  const q = Transaction.query(db)
    .where({ teamId })
    .whereNotIn('status', ['excluded', 'archived'])
    .where((w) => {
      w.whereRaw('abs(amount) between ? and ?', [amount * 0.9, amount * 1.1]);
      if (!r.currency) return;
      for (const currency of rates.keys()) {
        const converted = currency === r.currency ? null : convert(amount, r.currency, currency, rates);
        if (converted)
          w.orWhere((c) => {
            c.where({ currency }).whereRaw('abs(amount) between ? and ?', [converted * 0.95, converted * 1.05]);
          });
      }
    })
    .select('id', 'amount', 'currency', 'date', 'name', 'merchantName', 'counterpartyName')
    .limit(500);
  if (r.date) q.whereRaw('date between ?::date - 30 and ?::date + 30', [r.date, r.date]);
  return q;
}

export async function findBestMatch(db: Db, teamId: string, r: ReceiptForMatch) {
  const rates = r.currency ? await ratesOn(db, r.date) : new Map<string, number>();
  return bestMatch(r, await candidatesFor(db, teamId, r, rates), rates);
}
