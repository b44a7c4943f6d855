import { Readable } from 'node:stream';
import { csvRows, detectDelimiter } from '../../shared/domain/transaction-imports/csv';
import { detectImportFormat } from '../../shared/domain/transaction-imports/formats';
import { rowHasher, type ParsedRow, type RowResult } from '../../shared/domain/transaction-imports/rows';
import { csvMappingSchema } from '../../shared/domain/transaction-imports/schema';
import { decimalSeparatorOf, formatAmount, parseAmount, parseDate } from '../../shared/domain/transaction-imports/values';

/** How statement values are read: banks write amounts and dates every which way, and a wrong reading imports wrong money. */
describe('statement values', () => {
  it.each([
    ['-1.234,56', ',', '-1234.56'],
    ['1 234,5', ',', '1234.5'],
    ['2.500,00', ',', '2500'],
    ['-1,234.56', '.', '-1234.56'],
    ['(12.00)', '.', '-12'],
    ['12,50-', ',', '-12.5'],
    ['€ 3,00', ',', '3'],
    ["1'000.25", '.', '1000.25'],
    ['+0.0001', '.', '0.0001'],
    ['.5', '.', '0.5'],
  ] as const)('reads %s with %s decimals as %s', (text, decimal, expected) => {
    const value = parseAmount(text, decimal);
    expect(value === null ? null : formatAmount(value)).toBe(expected);
  });

  it.each([
    ['1,234.56', ','],
    ['12.34', ','],
    ['1.00001', '.'],
    ['abc', '.'],
    ['', '.'],
    ['1.2.3', '.'],
    ['9999999999999999', '.'],
  ] as const)('refuses %s with %s decimals', (text, decimal) => {
    expect(parseAmount(text, decimal)).toBeNull();
  });

  it('reads dates in the given order only, and refuses days that do not exist', () => {
    expect(parseDate('03.11.2026', 'DD.MM.YYYY')).toBe('2026-11-03');
    expect(parseDate('3.1.2026', 'DD.MM.YYYY')).toBe('2026-01-03');
    expect(parseDate('11/03/2026', 'MM/DD/YYYY')).toBe('2026-11-03');
    expect(parseDate('11/03/2026', 'DD/MM/YYYY')).toBe('2026-03-11');
    expect(parseDate('20261103', 'YYYYMMDD')).toBe('2026-11-03');
    expect(parseDate('03.11.26', 'DD.MM.YY')).toBe('2026-11-03');
    expect(parseDate('29.02.2025', 'DD.MM.YYYY')).toBeNull();
    expect(parseDate('29.02.2024', 'DD.MM.YYYY')).toBe('2024-02-29');
    expect(parseDate('2026-11-03', 'DD.MM.YYYY')).toBeNull();
    expect(parseDate('13/13/2026', 'MM/DD/YYYY')).toBeNull();
  });

  it('detects the decimal separator and the delimiter', () => {
    expect(decimalSeparatorOf(['-1.234,56', '2.500,00', '-950,00'])).toBe(',');
    expect(decimalSeparatorOf(['-1,234.56', '2500.00'])).toBe('.');
    expect(decimalSeparatorOf(['12', '-7'])).toBe('.');
    expect(detectDelimiter('Buchungstag;Verwendungszweck;Betrag\n')).toBe(';');
    expect(detectDelimiter('"a,b";c;d\n')).toBe(';');
    expect(detectDelimiter('date\tname\tamount\n')).toBe('\t');
    expect(detectDelimiter('date,name,amount\n')).toBe(',');
  });

  it('tells CSV, OFX and CAMT.053 apart by content', () => {
    expect(detectImportFormat(Buffer.from('\uFEFFDate,Amount\n'))).toBe('csv');
    expect(detectImportFormat(Buffer.from('OFXHEADER:100\nDATA:OFXSGML\n'))).toBe('ofx');
    expect(detectImportFormat(Buffer.from('<?xml version="1.0"?>\n<?OFX OFXHEADER="200"?><OFX>'))).toBe('ofx');
    expect(detectImportFormat(Buffer.from('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">'))).toBe(
      'camt053',
    );
    expect(detectImportFormat(Buffer.from('<?xml version="1.0"?><svg></svg>'))).toBeNull();
  });

  it('hashes identical rows of one file apart, and the same file the same way again', () => {
    const row: ParsedRow = {
      line: 2,
      date: '2026-11-03',
      amount: -320n * 100n,
      currency: null,
      name: 'Coffee',
      reference: null,
      counterparty: null,
    };
    const first = rowHasher('account-1');
    // Three coffees of the same price on one day (the line is not part of a row's identity).
    const a = [first(row), first({ ...row, line: 3 }), first({ ...row, line: 9 })];
    expect(new Set(a).size).toBe(3);
    const again = rowHasher('account-1');
    expect([again(row), again(row), again(row)]).toEqual(a);
    expect(rowHasher('account-2')(row)).not.toBe(a[0]);
    expect(a[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('reports every bad row of a CSV by its line, quoted line breaks included', async () => {
    const csv =
      'Date,Text,Debit,Credit\n2026-11-01,"Two\nlines",1.00,\n2026-11-31,Bad date,2.00,\n2026-11-02,,3.00,\n2026-11-03,Neither,,\n2026-11-04,Fine,,5.00\n';
    const mapping = csvMappingSchema.parse({
      date: 'Date',
      description: 'Text',
      debit: 'Debit',
      credit: 'Credit',
      dateFormat: 'YYYY-MM-DD',
    });
    const results = [];
    for await (const batch of csvRows(Readable.from([csv]), mapping, ',')) results.push(...batch);
    expect(results.map((r) => (r.ok ? [r.row.line, formatAmount(r.row.amount), r.row.name] : [r.error.line, r.error.message]))).toEqual([
      [2, '-1', 'Two lines'],
      [4, 'date "2026-11-31" is not a date in the format YYYY-MM-DD'],
      [5, 'the description is empty'],
      [6, 'neither a debit nor a credit amount'],
      [7, '5', 'Fine'],
    ]);
  });

  it('reports a file that stops being CSV by its line, after the rows before it', async () => {
    const mapping = csvMappingSchema.parse({ date: 'Date', description: 'Text', amount: 'Amount', dateFormat: 'YYYY-MM-DD' });
    const good = Array.from({ length: 2500 }, (_, i) => `2026-11-01,Row ${i},1.00`).join('\n');
    const batches: RowResult[][] = [];
    for await (const batch of csvRows(Readable.from([`Date,Text,Amount\n${good}\n2026-11-02,"unclosed,1.00\n`]), mapping, ','))
      batches.push(batch);
    const results = batches.flat();
    expect(results.filter((r) => r.ok)).toHaveLength(2500);
    expect(results.at(-1)).toEqual({ ok: false, error: { line: 2502, message: expect.stringContaining('not readable as CSV') } });
  });

  it('names a mapped column the header lacks', async () => {
    const mapping = csvMappingSchema.parse({
      date: 'Datum',
      description: 'Text',
      amount: 'Betrag',
      dateFormat: 'DD.MM.YYYY',
      decimalSeparator: ',',
    });
    const results = [];
    for await (const batch of csvRows(Readable.from(['Date;Text;Betrag\n01.11.2026;x;1,00\n']), mapping, ';')) results.push(...batch);
    expect(results).toEqual([{ ok: false, error: { line: 1, message: 'no such column: date ("Datum")' } }]);
  });
});
