import { AUTO_THRESHOLD, SUGGEST_THRESHOLD, bestMatch, scoreMatch, type TransactionForMatch } from '../../shared/domain/matching/score';

const tx = (over: Partial<TransactionForMatch>): TransactionForMatch => ({
  id: 't',
  amount: -100,
  currency: 'EUR',
  date: '2026-11-20',
  name: 'HOTEL ADLON BERLIN',
  merchantName: null,
  counterpartyName: null,
  ...over,
});
const rates = new Map([
  ['EUR', 1],
  ['USD', 1.05],
  ['GBP', 0.83],
]);

describe('matching a receipt to a transaction', () => {
  it('an exact amount, date and name is near certain', () => {
    const s = scoreMatch({ amount: 100, currency: 'EUR', date: '2026-11-20', merchant: 'Hotel Adlon' }, tx({}));
    expect(s.confidence).toBeGreaterThanOrEqual(AUTO_THRESHOLD);
  });

  it('a receipt in dollars matches the euro card payment by converted amount, with the card fee, but is never auto-linked', () => {
    // 105 USD at 1.05 is 100 EUR; the bank booked 101.50 EUR (a 1.5 % card fee).
    const s = scoreMatch({ amount: 105, currency: 'USD', date: '2026-11-20', merchant: 'Hotel Adlon' }, tx({ amount: -101.5 }), rates);
    expect(s).toMatchObject({ amountScore: 0.8, currencyScore: 0.6 });
    expect(s.confidence).toBeGreaterThanOrEqual(SUGGEST_THRESHOLD);
    expect(s.confidence).toBeLessThan(AUTO_THRESHOLD);
    // 10 % off after conversion is another payment.
    expect(
      scoreMatch({ amount: 105, currency: 'USD', date: '2026-11-20', merchant: 'Hotel Adlon' }, tx({ amount: -110 }), rates).confidence,
    ).toBe(0);
  });

  it('without a rate, the same number in another currency is no match', () => {
    expect(
      scoreMatch({ amount: 100, currency: 'USD', date: '2026-11-20', merchant: 'Hotel Adlon' }, tx({}), new Map([['EUR', 1]])).confidence,
    ).toBe(0);
    expect(scoreMatch({ amount: 100, currency: 'USD', date: '2026-11-20', merchant: 'Hotel Adlon' }, tx({})).confidence).toBe(0);
  });

  it('prefers the same-currency payment over a converted look-alike, and refuses a near tie', () => {
    const r = { amount: 100, currency: 'EUR', date: '2026-11-20', merchant: 'Hotel Adlon' };
    expect(bestMatch(r, [tx({ id: 'usd', amount: -105, currency: 'USD' }), tx({ id: 'eur' })], rates)?.transaction.id).toBe('eur');
    expect(bestMatch(r, [tx({ id: 'a' }), tx({ id: 'b' })], rates)).toBeNull();
  });
});
