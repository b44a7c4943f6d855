import { parse } from 'csv-parse/sync';
import { receiptPath } from '../../shared/domain/transaction-exports/columns';
import { csvHeader, csvLine } from '../../shared/domain/transaction-exports/csv';

describe('export CSV lines', () => {
  it('read back as the cells they were written from (RFC 4180 quoting)', () => {
    const text = 'Printer "Ink", Ltd\r\nsecond line';
    const line = csvHeader(['Name', 'Amount', 'Date', 'Note']) + csvLine([{ text }, { number: -120.99 }, { date: '2026-03-05' }, null]);
    expect(parse(line, { columns: true })).toEqual([{ Name: text, Amount: '-120.99', Date: '2026-03-05', Note: '' }]);
  });

  it('keeps text that looks like a formula as text, and leaves negative amounts alone', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx']) {
      expect(parse(csvLine([{ text: formula }]))[0]).toEqual([`'${formula}`]);
    }
    expect(csvLine([{ number: -5 }])).toBe('-5\r\n');
  });
});

describe('receipt paths in the ZIP', () => {
  it('sort by date, are unique by attachment and safe as file names', () => {
    const id = '7c994784-1111-4222-8333-444455556666';
    expect(receiptPath({ date: '2026-03-10' }, { id, name: 'receipt one.pdf' })).toBe('receipts/2026-03-10_7c994784_receipt_one.pdf');
    expect(receiptPath({ date: '2026-03-10' }, { id, name: '../../etc/passwd' })).toBe('receipts/2026-03-10_7c994784_etc_passwd');
    expect(receiptPath({ date: '2026-03-10' }, { id, name: 'Quittung Café.pdf' })).toBe('receipts/2026-03-10_7c994784_Quittung_Cafe.pdf');
  });
});
