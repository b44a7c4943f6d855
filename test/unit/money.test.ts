import { formatAmountWithCode, formatMoney as format, minorUnitsOf, roundMoney } from '../../shared/domain/currencies/money';
import { messageOf } from '../../shared/domain/notifications/messages';

describe('money in its currency', () => {
  it('knows the minor units of ISO 4217, and takes 2 for a code it does not know', () => {
    expect([minorUnitsOf('EUR'), minorUnitsOf('JPY'), minorUnitsOf('BHD'), minorUnitsOf('CLF')]).toEqual([2, 0, 3, 4]);
    expect([minorUnitsOf('jpy'), minorUnitsOf('JPY ')]).toEqual([0, 0]);
    expect([minorUnitsOf('XAU'), minorUnitsOf(null), minorUnitsOf('')]).toEqual([2, 2, 2]);
  });

  it.each([
    [999.99, 'JPY', 1000],
    [0.5, 'JPY', 1],
    [-0.5, 'JPY', -1],
    [1.2345, 'BHD', 1.235],
    [-1.2345, 'BHD', -1.235],
    [1.005, 'EUR', 1.01], // 1.00499… in binary
    [-1.005, 'EUR', -1.01],
    [2.675, 'USD', 2.68],
    [1.23456, 'CLF', 1.2346],
    [0.004, 'EUR', 0],
    [-0.004, 'EUR', 0],
    [1234567.891, 'XXX', 1234567.89],
  ])('rounds %d %s to %d', (amount, currency, expected) => {
    expect(Object.is(roundMoney(amount, currency), expected)).toBe(true);
  });

  it('formats in the currency’s digits, whatever Intl would choose, and a unit price with the decimals it has', () => {
    // Intl separates a code from the figure with a no-break space.
    const formatMoney = (...args: Parameters<typeof format>) => format(...args).replace(/\s/g, ' ');
    expect(formatMoney(1000, 'JPY', 'en-US')).toBe('¥1,000');
    expect(formatMoney(1.2345, 'BHD', 'en-US')).toBe('BHD 1.235');
    expect(formatMoney(1500, 'IQD', 'en-US')).toBe('IQD 1,500.000');
    expect(formatMoney(1234.5, 'EUR', 'de-DE')).toBe('1.234,50 €');
    expect(formatMoney(333.33, 'JPY', 'en-US', { price: true })).toBe('¥333.33');
    expect(formatMoney(333, 'JPY', 'en-US', { price: true })).toBe('¥333');
    expect(formatAmountWithCode(1234.5, 'EUR')).toBe('1,234.50 EUR');
    expect(formatAmountWithCode(1000, 'JPY')).toBe('1,000 JPY');
    expect(formatAmountWithCode(12.5, null)).toBe('12.50');
  });
});

describe('notifications about money', () => {
  it('write amounts in their currency’s digits', () => {
    const overdue = (amountDue: number, currency: string) =>
      messageOf('invoice_overdue', { invoiceId: 'i', invoiceNumber: 'INV-1', dueDate: '2026-11-01', amountDue, currency }).body;
    expect(overdue(42.5, 'EUR')).toContain('42.50 EUR is still open');
    expect(overdue(1100, 'JPY')).toContain('1,100 JPY is still open');
    expect(overdue(4.07, 'BHD')).toContain('4.070 BHD is still open');
  });
});
