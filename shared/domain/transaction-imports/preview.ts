import { open, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { csvRecords, detectDelimiter, readCsvRow, resolveColumns, type CsvRecord } from './csv';
import { detectImportFormat, unsupportedStatement } from './formats';
import type { RowResult } from './rows';
import type { DateFormat, ImportMapping, ImportPreviewDto } from './schema';
import { camtRows, ofxRows } from './statements';
import { dateFormatsFitting, decimalSeparatorOf, formatAmount, parseAmount } from './values';

/** How much of a CSV file the preview reads: the first rows are all it shows. */
const PREVIEW_BYTES = 64 * 1024;
const PREVIEW_ROWS = 10;
/** A statement is parsed whole for its first transactions only while it is this small. */
const STATEMENT_PREVIEW_BYTES = 2 * 1024 * 1024;

type Key = keyof ImportPreviewDto['mapping'];

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
 * What a file looks like to the importer, changing nothing: its format; for CSV the delimiter, the
 * header, the columns recognised by name, the date format and decimal separator the values fit, and
 * the first rows as they would import with that mapping.
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
    return {
      format,
      delimiter: null,
      decimalSeparator: null,
      dateFormat: null,
      hasHeader: false,
      headers: [],
      mapping: { date: null, description: null, amount: null, debit: null, credit: null, currency: null, reference: null },
      rows: [],
      sample: rows.slice(0, PREVIEW_ROWS).flatMap(sampleOf),
    };
  }

  const text = await headText(file.path);
  const delimiter = detectDelimiter(text.replace(/^\uFEFF/, ''));
  const records = await firstRecords(text, delimiter, PREVIEW_ROWS + 1);
  const first = records[0]?.fields ?? [];
  const hasHeader = first.length > 0 && !first.some(looksLikeData);
  const headers = hasHeader ? first : [];
  const data = hasHeader ? records.slice(1) : records.slice(0, PREVIEW_ROWS);
  const column = (i: number) => data.map((r) => r.fields[i] ?? '').filter((c) => c !== '');

  const mapping: ImportPreviewDto['mapping'] = {
    date: null,
    description: null,
    amount: null,
    debit: null,
    credit: null,
    currency: null,
    reference: null,
  };
  const taken = new Set<number>();
  const ref = (i: number) => (hasHeader ? headers[i] : i);
  for (const [key, words] of HEADER_WORDS) {
    const i = headers.findIndex(
      (h, index) => !taken.has(index) && words.test(h) && (key !== 'date' || dateFormatsFitting(column(index)).length > 0),
    );
    if (i >= 0) {
      mapping[key] = ref(i);
      taken.add(i);
    }
  }
  // No header, or none that names a date: the first column whose values are all dates.
  const width = Math.max(0, ...data.map((r) => r.fields.length));
  if (mapping.date === null) {
    const i = [...Array(width).keys()].find((c) => !taken.has(c) && dateFormatsFitting(column(c)).length > 0);
    if (i !== undefined) {
      mapping.date = ref(i);
      taken.add(i);
    }
  }
  if (mapping.amount === null && mapping.debit === null && mapping.credit === null) {
    const i = [...Array(width).keys()].find((c) => !taken.has(c) && column(c).length > 0 && decimalSeparatorOf(column(c)) !== null);
    if (i !== undefined) {
      mapping.amount = ref(i);
      taken.add(i);
    }
  }
  const indexOf = (c: string | number | null) => (c === null ? -1 : typeof c === 'number' ? c : headers.indexOf(c));
  const dateFormat: DateFormat | null = mapping.date === null ? null : (dateFormatsFitting(column(indexOf(mapping.date)))[0] ?? null);
  const amountSamples = [mapping.amount, mapping.debit, mapping.credit].flatMap((c) => (c === null ? [] : column(indexOf(c))));
  const decimalSeparator = decimalSeparatorOf(amountSamples);

  let sample: ImportPreviewDto['sample'] = [];
  if (mapping.date !== null && mapping.description !== null && dateFormat && decimalSeparator && amountSamples.length) {
    const full: ImportMapping = {
      date: mapping.date,
      description: mapping.description,
      ...(mapping.amount !== null ? { amount: mapping.amount } : {}),
      ...(mapping.amount === null && mapping.debit !== null ? { debit: mapping.debit } : {}),
      ...(mapping.amount === null && mapping.credit !== null ? { credit: mapping.credit } : {}),
      ...(mapping.currency !== null ? { currency: mapping.currency } : {}),
      ...(mapping.reference !== null ? { reference: mapping.reference } : {}),
      dateFormat,
      decimalSeparator,
      delimiter,
      hasHeader,
    };
    const resolved = resolveColumns(full, hasHeader ? headers : null);
    if ('columns' in resolved) {
      sample = data.flatMap((record) => sampleOf(readCsvRow(record, resolved.columns, full)));
    }
  }
  return { format, delimiter, decimalSeparator, dateFormat, hasHeader, headers, mapping, rows: data.map((r) => r.fields), sample };
}
