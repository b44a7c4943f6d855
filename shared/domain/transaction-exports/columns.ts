import { minorUnitsOf } from '../currencies/money';
import type { TransactionDto } from '../transactions/schema';
import type { ExportRow } from './rows';

/**
 * A cell as both files hold it: text, a number (with its own Excel format when the column's does not
 * fit every row, as money in currencies of other minor units), a calendar date (YYYY-MM-DD), or empty.
 */
export type ExportCell = { text: string } | { number: number; numFmt?: string } | { date: string } | null;

export interface ExportColumn {
  header: string;
  /** Excel column width, in characters. */
  width: number;
  /** Excel number format of the column's cells. */
  numFmt?: string;
  cell(t: ExportRow, receiptPaths: readonly string[]): ExportCell;
}

const text = (v: string | null | undefined): ExportCell => (v ? { text: v } : null);
const number = (v: number | null | undefined): ExportCell => (v === null || v === undefined ? null : { number: v });
/** Money shown with its currency's decimals: 1,000 for JPY, 1.235 for BHD, 42.50 for EUR. */
const money = (v: number | null | undefined, currency: string): ExportCell => {
  if (v === null || v === undefined) return null;
  const digits = minorUnitsOf(currency);
  return { number: v, numFmt: digits ? `#,##0.${'0'.repeat(digits)}` : '#,##0' };
};

/** The columns of transactions.csv and transactions.xlsx, in order: what an accountant books from. */
export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { header: 'Date', width: 12, numFmt: 'yyyy-mm-dd', cell: (t) => ({ date: t.date }) },
  { header: 'Name', width: 32, cell: (t) => text(t.name) },
  { header: 'Description', width: 32, cell: (t) => text(t.description) },
  { header: 'Amount', width: 14, cell: (t) => money(t.amount, t.currency) },
  { header: 'Currency', width: 9, cell: (t) => text(t.currency) },
  { header: 'Category', width: 20, cell: (t) => text(t.category?.name) },
  { header: 'Category slug', width: 16, cell: (t) => text(t.category?.slug) },
  { header: 'Status', width: 11, cell: (t) => text(t.status) },
  { header: 'Method', width: 13, cell: (t) => text(t.method) },
  { header: 'Counterparty', width: 24, cell: (t) => text(t.counterpartyName) },
  { header: 'Merchant', width: 24, cell: (t) => text(t.merchantName) },
  { header: 'Account', width: 20, cell: (t) => text(t.account?.name) },
  { header: 'Tags', width: 20, cell: (t) => text(t.tags.map((g) => g.name).join(', ')) },
  { header: 'Note', width: 30, cell: (t) => text(t.note) },
  { header: 'Tax amount', width: 12, cell: (t) => money(t.taxAmount, t.currency) },
  { header: 'Tax rate (%)', width: 12, cell: (t) => number(t.taxRate) },
  { header: 'Tax type', width: 10, cell: (t) => text(t.taxType) },
  { header: 'Receipts', width: 40, cell: (_t, paths) => text(paths.join('; ')) },
  { header: 'Split part', width: 10, cell: (t) => text(t.part) },
  { header: 'Transaction id', width: 38, cell: (t) => text(t.id) },
];

/** A file name safe in any ZIP tool and file system: letters, digits, dot, dash and underscore. */
const safeName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-100) || 'file';

/** Where an attachment lies in the ZIP: by date, so receipts sort as the books do, and unique by the attachment's id. */
export const receiptPath = (t: Pick<TransactionDto, 'date'>, attachment: { id: string; name: string }) =>
  `receipts/${t.date}_${attachment.id.slice(0, 8)}_${safeName(attachment.name)}`;
