import { open, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { csvRecords, detectDelimiter, readCsvRow, resolveColumns, type CsvRecord } from './csv';
import { detectImportFormat, unsupportedStatement } from './formats';
import type { RowResult } from './rows';
import { csvMappingSchema, DATE_FORMATS, type ImportPreviewDto } from './schema';
import { camtRows, ofxRows } from './statements';
import { dateFormatsFitting, decimalSeparatorOf, formatAmount, parseAmount } from './values';

/** How much of a CSV file the preview reads: the first rows are all it shows. */
const PREVIEW_BYTES = 64 * 1024;
const PREVIEW_ROWS = 10;
/** A statement is parsed whole for its first transactions only while it is this small. */
const STATEMENT_PREVIEW_BYTES = 2 * 1024 * 1024;

type Key = 'date' | 'description' | 'amount' | 'debit' | 'credit' | 'currency' | 'reference';
type Suggestion = NonNullable<ImportPreviewDto['mapping']>;
type Missing = ImportPreviewDto['missing'];

/** A row read as the preview shows it; a row that could not be read shows nothing. */
const sampleOf = (r: RowResult): ImportPreviewDto['sample'] =>
  r.ok
    ? [
        {
          line: r.row.line,
          date: r.row.date,
          amount: formatAmount(r.row.amount),
          currency: r.row.currency,
          name: r.row.name,
          reference: r.row.reference,
        },
      ]
    : [];
/** Header names banks use, in English, German, French, Dutch and Spanish; earlier keys claim a column first. */
const HEADER_WORDS: [Key, RegExp][] = [
  ['debit', /debit|débit|soll|withdraw|paid out|money out|ausgang|af\b/i],
  ['credit', /credit|crédit|haben|deposit|paid in|money in|eingang|bij\b/i],
  ['amount', /amount|betrag|montant|bedrag|importe|umsatz|summe|sum\b/i],
  ['currency', /currency|währung|waehrung|devise|ccy|moneda|munt/i],
  ['date', /date|datum|buchungstag|fecha|tag\b|posted/i],
  ['reference', /reference|referenz|\bref\b|fitid|transaction id|kundenreferenz|mandat/i],
  [
    'description',
    /description|verwendungszweck|buchungstext|name|payee|memo|detail|beschreibung|text|libell|omschrijving|concepto|purpose|empf|beg(ü|ue)nstigt|auftraggeber|counterparty/i,
  ],
];

/** The first bytes of the spooled file, cut at the last whole line. */
async function headText(filePath: string): Promise<string> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(PREVIEW_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, PREVIEW_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const cut = bytesRead === PREVIEW_BYTES ? text.lastIndexOf('\n') : -1;
    return cut > 0 ? text.slice(0, cut + 1) : text;
  } finally {
    await handle.close();
  }
}

async function firstRecords(text: string, delimiter: ReturnType<typeof detectDelimiter>, count: number): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  try {
    for await (const record of csvRecords(Readable.from([text]), delimiter)) {
      records.push(record);
      if (records.length >= count) break;
    }
  } catch {
    // A broken line inside the preview: show what came before it.
  }
  return records;
}

const looksLikeData = (cell: string) =>
  dateFormatsFitting([cell]).length > 0 || parseAmount(cell, '.') !== null || parseAmount(cell, ',') !== null;

/**
 * What a file looks like to the importer, changing nothing: its format; for CSV the header, a mapping
 * as far as the file shows it (the columns recognised by name or by their values, the date format and
 * decimal separator the values fit), what that mapping still lacks, and the first rows as they would
 * import with it. A mapping that lacks nothing is one POST /transactions/import accepts as it is.
 */
export async function previewImportFile(file: { path: string; head: Buffer; size: number }): Promise<ImportPreviewDto> {
  const format = detectImportFormat(file.head);
  if (!format) throw unsupportedStatement();
  if (format !== 'csv') {
    let rows: RowResult[] = [];
    if (file.size <= STATEMENT_PREVIEW_BYTES) {
      const source = await readFile(file.path, 'utf8');
      rows = format === 'ofx' ? await ofxRows(source) : camtRows(source);
    }
    return { format, headers: [], mapping: null, missing: [], rows: [], sample: rows.slice(0, PREVIEW_ROWS).flatMap(sampleOf) };
  }

  const text = await headText(file.path);
  const delimiter = detectDelimiter(text.replace(/^\uFEFF/, ''));
  const records = await firstRecords(text, delimiter, PREVIEW_ROWS + 1);
  const first = records[0]?.fields ?? [];
  const hasHeader = first.length > 0 && !first.some(looksLikeData);
  const headers = hasHeader ? first : [];
  const data = hasHeader ? records.slice(1) : records.slice(0, PREVIEW_ROWS);
  const column = (i: number) => data.map((r) => r.fields[i] ?? '').filter((c) => c !== '');

  const found = new Map<Key, number>();
  const taken = new Set<number>();
  const take = (key: Key, i: number) => {
    found.set(key, i);
    taken.add(i);
  };
  for (const [key, words] of HEADER_WORDS) {
    const i = headers.findIndex(
      (h, index) => !taken.has(index) && words.test(h) && (key !== 'date' || dateFormatsFitting(column(index)).length > 0),
    );
    if (i >= 0) take(key, i);
  }
  // No header, or none that names a date: the first column whose values are all dates.
  const width = Math.max(0, ...data.map((r) => r.fields.length));
  if (!found.has('date')) {
    const i = [...Array(width).keys()].find((c) => !taken.has(c) && dateFormatsFitting(column(c)).length > 0);
    if (i !== undefined) take('date', i);
  }
  // One signed amount column, or debit and/or credit: both kinds at once is not a mapping.
  if (found.has('amount')) {
    found.delete('debit');
    found.delete('credit');
  } else if (!found.has('debit') && !found.has('credit')) {
    const i = [...Array(width).keys()].find((c) => !taken.has(c) && column(c).length > 0 && decimalSeparatorOf(column(c)) !== null);
    if (i !== undefined) take('amount', i);
  }

  // A column by its header name where that name is the only one of its kind (the import matches names
  // case-insensitively), else by its position.
  const nameOf = (h: string) => h.trim().toLowerCase();
  const unique = (i: number) => headers.filter((h) => nameOf(h) === nameOf(headers[i])).length === 1;
  const ref = (i: number) => (hasHeader && unique(i) ? headers[i] : i);
  const dateIndex = found.get('date');
  const dateFormat = dateIndex === undefined ? undefined : dateFormatsFitting(column(dateIndex)).at(0);
  const amountSamples = (['amount', 'debit', 'credit'] as const).flatMap((k) => (found.has(k) ? column(found.get(k) ?? -1) : []));
  const decimalSeparator = decimalSeparatorOf(amountSamples) ?? undefined;

  const mapping: Suggestion = {};
  for (const key of ['date', 'description', 'amount', 'debit', 'credit', 'currency', 'reference'] as const) {
    const i = found.get(key);
    if (i !== undefined) mapping[key] = ref(i);
  }
  if (dateFormat) mapping.dateFormat = dateFormat;
  if (decimalSeparator) mapping.decimalSeparator = decimalSeparator;
  mapping.delimiter = delimiter;
  mapping.hasHeader = hasHeader;

  const missing = missingOf(mapping);
  const parsed = csvMappingSchema.safeParse(mapping);
  // What was found is checked by the import's own schema, so an empty `missing` is a mapping it takes.
  if (!missing.length && !parsed.success) {
    missing.push(...parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })));
  }
  let sample: ImportPreviewDto['sample'] = [];
  if (!missing.length && parsed.success) {
    const resolved = resolveColumns(parsed.data, hasHeader ? headers : null);
    if ('columns' in resolved) sample = data.flatMap((record) => sampleOf(readCsvRow(record, resolved.columns, parsed.data)));
  }
  return { format, headers, mapping, missing, rows: data.map((r) => r.fields), sample };
}

/** The fields an ImportMapping needs that the file did not show, each with what to do about it. */
function missingOf(mapping: Suggestion): Missing {
  const missing: Missing = [];
  const named = 'its header name, or its 0-based position';
  if (mapping.date === undefined) {
    missing.push({
      field: 'date',
      message: `no column whose values are all dates in one format was found: give the date column (${named})`,
    });
  }
  if (mapping.description === undefined) {
    missing.push({
      field: 'description',
      message: `no column named like a description (text, purpose, payee, …) was found: give the column with the transaction's text (${named})`,
    });
  }
  if (mapping.amount === undefined && mapping.debit === undefined && mapping.credit === undefined) {
    missing.push({
      field: 'amount',
      message: `no column of amounts was found: give one signed \`amount\` column, or \`debit\` and/or \`credit\` columns instead (${named})`,
    });
  }
  if (mapping.dateFormat === undefined) {
    missing.push({ field: 'dateFormat', message: `give the format of the date column: one of ${DATE_FORMATS.join(', ')}` });
  }
  return missing;
}
