import { counterpartyKey } from '../../shared/domain/recurring-payments/counterparty-key';
import { addMonths, amountChanged, detectSeries, statusOn, type Payment } from '../../shared/domain/recurring-payments/detect';
import { addDays } from '../../shared/domain/reports/period';

const series = (dates: string[], amounts: number | number[]): Payment[] =>
  dates.map((date, i) => ({ id: `p${i}`, date, amount: Array.isArray(amounts) ? amounts[i] : amounts }));
const every = (start: string, n: number, step: (d: string, i: number) => string) => {
  const out = [start];
  for (let i = 1; i < n; i++) out.push(step(out[i - 1], i));
  return out;
};

describe('counterparty keys', () => {
  it('groups what the bank writes differently for one counterparty', () => {
    expect(counterpartyKey('NETFLIX.COM 866-579-7172')).toBe('netflix com');
    expect(counterpartyKey('Netflix.com')).toBe('netflix com');
    expect(counterpartyKey('PAYPAL *NETFLIX.COM')).toBe('netflix com');
    expect(counterpartyKey('Spotify P1A2B3C4')).toBe('spotify');
    expect(counterpartyKey('Müller GmbH')).toBe('muller');
    expect(counterpartyKey('SEPA Lastschrift Stadtwerke Köln Ref 2026-03')).toBe('stadtwerke koln');
  });

  it('leaves nothing of a name made only of references', () => {
    expect(counterpartyKey('4711-0815 2026')).toBe('');
  });
});

describe('detecting a series', () => {
  it('finds a weekly payment and the date of the next one', () => {
    const s = detectSeries(
      series(
        every('2026-09-01', 6, (d) => addDays(d, 7)),
        -12.5,
      ),
    );
    expect(s).toMatchObject({ frequency: 'weekly', expectedAmount: -12.5, nextExpectedDate: '2026-10-13' });
    expect(s?.payments).toHaveLength(6);
  });

  it('finds a weekly payment moved by a day around a holiday', () => {
    const s = detectSeries(series(['2026-09-01', '2026-09-08', '2026-09-16', '2026-09-22'], -10));
    expect(s?.frequency).toBe('weekly');
  });

  it('finds a monthly payment across months of different lengths, on the last day when the month is shorter', () => {
    const dates = ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31'];
    const s = detectSeries(series(dates, -49));
    expect(s).toMatchObject({ frequency: 'monthly', nextExpectedDate: '2026-06-30' });
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
  });

  it('finds a quarterly payment', () => {
    const s = detectSeries(series(['2025-01-15', '2025-04-15', '2025-07-14', '2025-10-15'], -300));
    expect(s).toMatchObject({ frequency: 'quarterly', nextExpectedDate: '2026-01-15' });
  });

  it('finds a yearly payment', () => {
    const s = detectSeries(series(['2023-03-02', '2024-03-01', '2025-03-03'], [-99, -99, -119]));
    expect(s).toMatchObject({ frequency: 'annually', nextExpectedDate: '2026-03-03', lastAmount: -119, previousAmount: -99 });
  });

  it('finds a biweekly payment', () => {
    const s = detectSeries(
      series(
        every('2026-06-05', 5, (d) => addDays(d, 14)),
        -800,
      ),
    );
    expect(s?.frequency).toBe('biweekly');
  });

  it('does not find irregular payments to one counterparty', () => {
    const dates = ['2026-01-03', '2026-01-20', '2026-03-02', '2026-03-09', '2026-05-30', '2026-06-14', '2026-08-01'];
    expect(detectSeries(series(dates, -25))).toBeNull();
    expect(detectSeries(series(dates, [-3, -80, -12, -5, -140, -20, -9]))).toBeNull();
  });

  it('needs three payments', () => {
    expect(detectSeries(series(['2026-01-10', '2026-02-10'], -10))).toBeNull();
  });

  it('does not take payments at wildly different amounts for a new series', () => {
    const dates = every('2026-01-10', 5, (d) => addMonths(d, 1));
    expect(detectSeries(series(dates, [-10, -60, -15, -200, -40]))).toBeNull();
  });

  it('keeps a known series through a change of amount, and says so', () => {
    const dates = every('2026-01-10', 6, (d) => addMonths(d, 1));
    const amounts = [-10, -10, -10, -10, -10, -20];
    // Not known before, the doubled last payment ends the run that must end with it.
    expect(detectSeries(series(dates, amounts))).toBeNull();
    const known = detectSeries(series(dates, amounts), 'monthly');
    expect(known).toMatchObject({ frequency: 'monthly', lastAmount: -20, previousAmount: -10, expectedAmount: -10 });
    expect(known?.payments).toHaveLength(6);
    expect(amountChanged(-10, -20, 0.1)).toBe(true);
    expect(amountChanged(-10, -10.5, 0.1)).toBe(false);
  });

  it('counts only the run that ends with the latest payment', () => {
    // Monthly for four months, a gap of three months, then monthly again twice: the new run is too short.
    const dates = ['2026-01-05', '2026-02-05', '2026-03-05', '2026-04-05', '2026-07-05', '2026-08-05'];
    expect(detectSeries(series(dates, -30))).toBeNull();
  });
});

describe('the status of a series on a day', () => {
  it('is active until the expected date and grace, missing after, ended after three missed payments', () => {
    expect(statusOn('monthly', '2026-07-10', '2026-07-17')).toBe('active');
    expect(statusOn('monthly', '2026-07-10', '2026-07-18')).toBe('missing');
    expect(statusOn('monthly', '2026-07-10', '2026-09-17')).toBe('missing');
    expect(statusOn('monthly', '2026-07-10', '2026-09-18')).toBe('ended');
    expect(statusOn('weekly', '2026-07-10', '2026-07-14')).toBe('missing');
  });
});
