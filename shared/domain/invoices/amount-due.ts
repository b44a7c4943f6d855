import { roundMoney } from '../currencies/money';

/**
 * What is still to be paid on an open invoice: its amount less what was paid and what its credit
 * notes took back. Everything that speaks of an invoice's "due" (its response, payments, matching,
 * suggestions, the summary, chat, the overdue notice) goes through this rule, so a partly credited
 * invoice is owed its remainder everywhere and a fully credited one nowhere.
 */
export function amountDue(invoice: { amount: number; amountPaid: number; amountCredited: number; currency: string }): number {
  return roundMoney(invoice.amount - invoice.amountPaid - invoice.amountCredited, invoice.currency);
}

/** The same rule for a query that filters or sums by it; `alias` is the invoices table's alias in it. */
export function amountDueSql(alias?: string): string {
  const col = (name: string) => (alias ? `${alias}.${name}` : name);
  return `(${col('amount')} - ${col('amount_paid')} - ${col('amount_credited')})`;
}
