import { parse } from 'csv-parse/sync';
import { taxKeyOf, widen } from '../../shared/domain/datev/accounts';
import { extfAmount, extfHead, extfLine, fromWindows1252, toWindows1252 } from '../../shared/domain/datev/extf';

const head = {
  createdAt: new Date('2026-11-27T10:11:12.345Z'),
  consultantNumber: 1001,
  clientNumber: 42,
  fiscalYearStart: '2026-07-01',
  accountLength: 5,
  from: '2026-07-01',
  to: '2027-06-30',
  label: 'Bank "July"; all',
  currency: 'EUR',
  exportedBy: 'Acme',
};

describe('DATEV EXTF', () => {
  it('writes the header line of format 700, category 21, and the column names', () => {
    const [header, columns] = parse(extfHead(head), { delimiter: ';', relax_column_count: true });
    expect(header).toHaveLength(31);
    expect(header.slice(0, 17)).toEqual([
      'EXTF',
      '700',
      '21',
      'Buchungsstapel',
      '13',
      '20261127101112345',
      '',
      'FO',
      'Acme',
      '',
      '1001',
      '42',
      '20260701',
      '5',
      '20260701',
      '20270630',
      'Bank "July"  all',
    ]);
    expect(columns).toHaveLength(14);
    expect(columns[6]).toBe('Konto');
  });

  it('writes a booking with an unsigned comma amount, its side, DDMM and quoted text that cannot break the line', () => {
    const line = extfLine(
      {
        amount: 1234.5,
        side: 'H',
        currency: 'JPY',
        rate: 160.5,
        baseAmount: 7.69,
        baseCurrency: 'EUR',
        account: '12000',
        contraAccount: '49300',
        taxKey: '9',
        date: '2026-03-05',
        reference: 'abc',
        text: 'Paper;\r\n"Ink"',
      },
      0,
    );
    expect(line.endsWith('\r\n')).toBe(true);
    expect(parse(line, { delimiter: ';' })[0]).toEqual([
      '1235',
      'H',
      'JPY',
      '160,500000',
      '7,69',
      'EUR',
      '12000',
      '49300',
      '9',
      '0503',
      'abc',
      '',
      '',
      'Paper "Ink"',
    ]);
    expect(extfAmount(-0.5)).toBe('0,50');
  });

  it('encodes Windows-1252 both ways, and what it cannot hold as ?', () => {
    const bytes = toWindows1252('Müller € – 日');
    expect([...bytes]).toEqual([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x20, 0x80, 0x20, 0x96, 0x20, 0x3f]);
    expect(fromWindows1252(bytes)).toBe('Müller € – ?');
  });

  it('widens SKR03 accounts to the account length and keys the VAT rates', () => {
    expect(widen('1200', 6)).toBe('120000');
    expect(widen('1200', 4)).toBe('1200');
    expect([taxKeyOf(19, 'expense'), taxKeyOf(7, 'expense'), taxKeyOf(19, 'income'), taxKeyOf(7, 'income'), taxKeyOf(0, 'income')]).toEqual(
      ['9', '8', '3', '2', null],
    );
  });
});
