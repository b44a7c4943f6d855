import { roundMoney } from '../currencies/money';
import type { TransactionDto } from '../transactions/schema';

/** A transaction as a row of an export: the whole, or one part of a split ("2 of 3"). */
export type ExportRow = TransactionDto & { part: string | null };

/**
 * The rows a transaction makes in an export: one, or one per part of a split, each with the part's
 * amount, category, tags and note (the whole's note when the part has none) and its share of a stated
 * tax, so an accountant books each part to its own account. The transaction's id is on every row.
 */
export function exportRowsOf(t: TransactionDto): ExportRow[] {
  if (!t.splits) return [{ ...t, part: null }];
  const count = t.splits.length;
  return t.splits.map((p, i) => ({
    ...t,
    amount: p.amount,
    category: p.category,
    tags: p.tags,
    note: p.note ?? t.note,
    taxAmount: t.taxAmount === null || t.amount === 0 ? t.taxAmount : roundMoney((t.taxAmount * p.amount) / t.amount, t.currency),
    part: `${i + 1} of ${count}`,
  }));
}
