import type { Db } from '../../db/knex';
import { Transaction, type ReceivedEInvoice } from '../../db/models';
import { minorUnitsOf } from '../currencies/money';
import { ibansIn } from '../documents/own-invoice';
import { scoreMatch, type MatchScore, type TransactionForMatch } from './score';

/** Letters and digits only, upper case: banks print a reference with their own spacing and dashes. */
const compact = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Shorter than this, a reference is found by chance in any bank text. */
const MIN_REFERENCE = 4;

/**
 * The payment of a supplier's e-invoice, found exactly: money out of the very amount payable, in its
 * currency, whose bank text carries the invoice's payment reference (or its number) or the supplier's
 * IBAN. Exact evidence, so it is certain (confidence 1) where scoring only estimates; two such
 * payments are no certainty, and the scoring decides instead. A credit note asks nothing to be paid.
 */
export async function findExactPayment(
  db: Db,
  teamId: string,
  inv: ReceivedEInvoice,
): Promise<{ transaction: TransactionForMatch; score: MatchScore } | null> {
  if (inv.typeCode === '381' || inv.totals.payable <= 0) return null;
  const amount = inv.totals.payable / 10 ** minorUnitsOf(inv.currency);
  const rows = await Transaction.query(db)
    .where({ teamId, currency: inv.currency })
    .whereNotIn('status', ['excluded', 'archived'])
    // Money out is negative here, whatever sign the bank's own API uses.
    .where('amount', -amount)
    .select('id', 'amount', 'currency', 'date', 'name', 'description', 'merchantName', 'counterpartyName')
    .limit(500);
  const references = [inv.payment.reference, inv.number]
    .filter((r): r is string => !!r)
    .map(compact)
    .filter((r) => r.length >= MIN_REFERENCE);
  const exact = rows.filter((t) => {
    const text = [t.name, t.description, t.counterpartyName].filter(Boolean).join(' ');
    const haystack = compact(text);
    return references.some((r) => haystack.includes(r)) || (inv.payment.iban !== null && ibansIn(text).has(inv.payment.iban));
  });
  if (exact.length !== 1) return null;
  const [{ description: _description, ...transaction }] = exact;
  const receipt = { amount, currency: inv.currency, date: inv.issueDate, merchant: inv.supplier.name };
  return { transaction, score: { ...scoreMatch(receipt, transaction), confidence: 1 } };
}
