import { createHash } from 'node:crypto';
import type { ImportError } from './schema';
import { formatAmount } from './values';

/** One transaction of a statement file, read and checked, before it has an account. */
export interface ParsedRow {
  line: number;
  /** YYYY-MM-DD. */
  date: string;
  /** Ten-thousandths, signed (negative: money out). */
  amount: bigint;
  /** Null: the account's currency. */
  currency: string | null;
  name: string;
  reference: string | null;
  counterparty: string | null;
}

/** What a reader yields per transaction: the row, or why it cannot be imported. */
export type RowResult = { ok: true; row: ParsedRow } | { ok: false; error: ImportError };

/** The staging form: ready to insert as is (one JSON array per line of the staging file). */
export type StagedRow = [
  date: string,
  amount: string,
  currency: string,
  name: string,
  reference: string | null,
  counterparty: string | null,
  hash: string,
];

/** How many bad rows an import keeps to report: enough to fix a file, not a copy of a broken one. */
export const MAX_REPORTED_ERRORS = 1000;

/**
 * Numbers rows the same way for the same file: the hash of a row is its account, date, amount and
 * text, plus how many identical rows came before it in the file. Two identical rows of one
 * statement (two coffees on one day) stay two transactions; the same file again hashes to the same
 * keys, which the database then refuses as duplicates.
 */
export function rowHasher(bankAccountId: string) {
  const seen = new Map<string, number>();
  return (row: ParsedRow): string => {
    const identity = `${row.date}\u0000${formatAmount(row.amount)}\u0000${row.name}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    const hex = createHash('sha256').update(`${bankAccountId}\u0000${identity}\u0000${occurrence}`).digest('hex');
    // 128 bits of the digest, written as a uuid (the column's type).
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  };
}

export function stageRow(row: ParsedRow, accountCurrency: string, hash: (row: ParsedRow) => string): StagedRow {
  return [row.date, formatAmount(row.amount), row.currency ?? accountCurrency, row.name, row.reference, row.counterparty, hash(row)];
}

/** Text as the transactions table keeps it: trimmed, without NUL (PostgreSQL refuses it), at most 500 characters. */
export const cleanText = (text: string | null | undefined): string | null => {
  const t = (text ?? '').replaceAll('\u0000', '').replace(/\s+/g, ' ').trim().slice(0, 500);
  return t || null;
};
