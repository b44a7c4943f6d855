import type { ExportCell } from './columns';

// A spreadsheet opening the CSV runs a cell that starts like a formula: such text is kept as text by a leading apostrophe (OWASP).
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, RFC 4180: quoted when it holds a separator, a quote or a line break. */
function field(cell: ExportCell): string {
  if (cell === null) return '';
  if ('number' in cell) return String(cell.number);
  if ('date' in cell) return cell.date;
  const value = FORMULA_START.test(cell.text) ? `'${cell.text}` : cell.text;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const csvLine = (cells: readonly ExportCell[]) => `${cells.map(field).join(',')}\r\n`;
export const csvHeader = (headers: readonly string[]) => csvLine(headers.map((h) => ({ text: h })));
