import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { cleanText, type ParsedRow, type RowResult } from './rows';
import { DELIMITERS, type Delimiter, type ImportMapping } from './schema';
import { parseAmount, parseDate } from './values';

/** A record of the file with the line it ends on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * The records of a CSV stream, read as they arrive (never the whole file at once), in the batches
 * the parser has ready: one promise per batch instead of one per record, which with the async
 * context hooks every request and activity carries weighed on every large import. Lines are
 * counted here rather than by csv-parse's `info` (a snapshot object per record, a large share of
 * the parse time): a record takes one line plus the line breaks inside its quoted fields, and an
 * empty line is a record of one empty field, skipped but counted.
 */
export async function* csvRecordBatches(input: Readable, delimiter: Delimiter): AsyncGenerator<CsvRecord[]> {
  // Passed on to the parser's stream: how many records it buffers, so how large a batch can be.
  const options = { delimiter, bom: true, relax_column_count: true, max_record_size: 100_000, readableHighWaterMark: RECORDS_BUFFERED };
  const parser = input.pipe(parse(options));
  // Kept from the start: an error while the caller is busy with a batch would otherwise have no listener.
  const seen: { failure: Error | null } = { failure: null };
  parser.on('error', (err: Error) => (seen.failure = err));
  let line = 0;
  try {
    for (;;) {
      const batch: CsvRecord[] = [];
      let fields: string[] | null;
      while ((fields = parser.read() as string[] | null) !== null) {
        line++;
        const start = line;
        for (const f of fields) if (f.includes('\n')) line += f.split('\n').length - 1;
        if (fields.length === 1 && fields[0].trim() === '') continue;
        batch.push({ line: start, fields });
      }
      if (seen.failure) throw seen.failure;
      if (batch.length) yield batch;
      else if (parser.readableEnded) return;
      else await moreOf(parser);
    }
  } catch (err) {
    if (err instanceof CsvError) throw new CsvSyntaxError((err as CsvError & { lines?: number }).lines ?? line + 1, err.message);
    throw err;
  } finally {
    parser.destroy();
  }
}

/** Records the parser holds ready at most: a batch's size. */
const RECORDS_BUFFERED = 1000;

/** Until the stream has something to read, has ended, or has failed (the caller then finds which). */
function moreOf(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      stream.off('readable', wake);
      stream.off('end', wake);
      stream.off('error', wake);
      resolve();
    };
    stream.on('readable', wake);
    stream.on('end', wake);
    stream.on('error', wake);
  });
}

/** The records one at a time, for a reader that wants only the first few (the preview). */
export async function* csvRecords(input: Readable, delimiter: Delimiter): AsyncGenerator<CsvRecord> {
  for await (const batch of csvRecordBatches(input, delimiter)) yield* batch;
}

/** The file is not CSV past some line (an unclosed quote, a record too long). */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/** The delimiter the first line uses most (outside quotes); a comma when it names none. */
export function detectDelimiter(head: string): Delimiter {
  const firstLine = head.split(/\r?\n/, 1)[0].replace(/"[^"]*"/g, '');
  const counts = DELIMITERS.map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

type ColumnKey = 'date' | 'description' | 'amount' | 'debit' | 'credit' | 'currency' | 'reference';
const COLUMN_KEYS: ColumnKey[] = ['date', 'description', 'amount', 'debit', 'credit', 'currency', 'reference'];
type Columns = Partial<Record<ColumnKey, number>>;

/** The mapping's columns as positions, or the names the header lacks. */
export function resolveColumns(mapping: ImportMapping, header: string[] | null): { columns: Columns } | { missing: string[] } {
  const byName = new Map((header ?? []).map((h, i) => [h.trim().toLowerCase(), i]));
  const columns: Columns = {};
  const missing: string[] = [];
  for (const key of COLUMN_KEYS) {
    const ref = mapping[key];
    if (ref === undefined) continue;
    const index = typeof ref === 'number' ? ref : byName.get(ref.trim().toLowerCase());
    if (index === undefined || (header && index >= header.length)) missing.push(`${key} (${JSON.stringify(ref)})`);
    else columns[key] = index;
  }
  return missing.length ? { missing } : { columns };
}

/**
 * Reads one record as a transaction: every field checked, each problem named for the line.
 * Debit and credit columns are magnitudes: a debit is money out whatever its sign in the file.
 */
export function readCsvRow(record: CsvRecord, columns: Columns, mapping: ImportMapping): RowResult {
  const { line, fields } = record;
  const needed = Math.max(...Object.values(columns)) + 1;
  if (fields.length < needed) return fail(line, `expected at least ${needed} columns, found ${fields.length}`);
  const at = (key: ColumnKey) => (columns[key] === undefined ? '' : fields[columns[key]]);

  const problems: string[] = [];
  const rawDate = at('date');
  const date = parseDate(rawDate, mapping.dateFormat);
  if (!date) problems.push(`date ${JSON.stringify(rawDate)} is not a date in the format ${mapping.dateFormat}`);
  const name = cleanText(at('description'));
  if (!name) problems.push('the description is empty');

  let amount: bigint | null = null;
  if (columns.amount !== undefined) {
    amount = parseAmount(at('amount'), mapping.decimalSeparator);
    if (amount === null) problems.push(`amount ${JSON.stringify(at('amount'))} is not a number`);
  } else {
    const debitText = at('debit');
    const creditText = at('credit');
    const debit = debitText ? parseAmount(debitText, mapping.decimalSeparator) : 0n;
    const credit = creditText ? parseAmount(creditText, mapping.decimalSeparator) : 0n;
    if (debit === null) problems.push(`debit ${JSON.stringify(debitText)} is not a number`);
    if (credit === null) problems.push(`credit ${JSON.stringify(creditText)} is not a number`);
    if (!debitText && !creditText) problems.push('neither a debit nor a credit amount');
    if (debit !== null && credit !== null) amount = abs(credit) - abs(debit);
  }

  let currency: string | null = null;
  if (columns.currency !== undefined) {
    currency = at('currency').trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) problems.push(`currency ${JSON.stringify(at('currency'))} is not an ISO 4217 code`);
  }
  if (problems.length || !date || !name || amount === null) return fail(line, problems.join('; '));
  const row: ParsedRow = { line, date, amount, currency, name, reference: cleanText(at('reference')), counterparty: null };
  return { ok: true, row };
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const fail = (line: number, message: string): RowResult => ({ ok: false, error: { line, message } });

/**
 * Every row of a CSV file under the mapping, in file order, in the parser's batches; a mapping the
 * header does not fit is one error on line 1.
 */
export async function* csvRows(input: Readable, mapping: ImportMapping, delimiter: Delimiter): AsyncGenerator<RowResult[]> {
  let columns: Columns | null = null;
  try {
    for await (const records of csvRecordBatches(input, delimiter)) {
      const rows: RowResult[] = [];
      for (const record of records) {
        if (!columns) {
          const header = mapping.hasHeader ? record.fields : null;
          const resolved = resolveColumns(mapping, header);
          if ('missing' in resolved) {
            yield [fail(record.line, `no such column: ${resolved.missing.join(', ')}`)];
            return;
          }
          columns = resolved.columns;
          if (header) continue;
        }
        rows.push(readCsvRow(record, columns, mapping));
      }
      yield rows;
    }
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    yield [fail(err.line, `not readable as CSV: ${err.message}`)];
  }
}
