import type { RecurringFrequency } from '../../db/models';
import { addDays } from '../reports/period';

/** One payment to a counterparty, in date order; `amount` is signed as stored (negative). */
export interface Payment {
  id: string;
  date: string;
  amount: number;
}

interface Cadence {
  /** Days between two payments of the series: calendar months and weekends move a date by a few. */
  minDays: number;
  maxDays: number;
  /** How long after the expected date a payment may still come before it is missing. */
  graceDays: number;
  months: number;
  days: number;
}

/** The ranges do not overlap, so a series fits at most one. */
export const CADENCES: Record<RecurringFrequency, Cadence> = {
  weekly: { minDays: 6, maxDays: 8, graceDays: 3, months: 0, days: 7 },
  biweekly: { minDays: 12, maxDays: 16, graceDays: 4, months: 0, days: 14 },
  monthly: { minDays: 26, maxDays: 35, graceDays: 7, months: 1, days: 0 },
  quarterly: { minDays: 84, maxDays: 98, graceDays: 14, months: 3, days: 0 },
  annually: { minDays: 355, maxDays: 376, graceDays: 30, months: 12, days: 0 },
};

/** Fewer payments than this are a coincidence, not a series. */
export const MIN_OCCURRENCES = 3;
/** Two consecutive payments of a series first found differ by at most this share of the larger. */
export const SIMILAR_AMOUNT = 0.3;

const DAY_MS = 86_400_000;
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

/** `date` plus whole months, on the same day of the month or the month's last day when it has fewer. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, lastDay));
  return first.toISOString().slice(0, 10);
}

/** The date one period after `date`. */
export function nextDate(frequency: RecurringFrequency, date: string): string {
  const c = CADENCES[frequency];
  return c.months ? addMonths(date, c.months) : addDays(date, c.days);
}

const similar = (a: number, b: number) => Math.abs(Math.abs(a) - Math.abs(b)) <= SIMILAR_AMOUNT * Math.max(Math.abs(a), Math.abs(b));

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const m = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return Math.round(m * 10_000) / 10_000;
}

export interface DetectedSeries {
  frequency: RecurringFrequency;
  /** The payments of the series, oldest first: the longest run ending with the latest payment. */
  payments: Payment[];
  /** The median of the last three payments: what the next one is expected to be. */
  expectedAmount: number;
  lastAmount: number;
  /** The median of up to three payments before the last: the amount the last one is compared with. */
  previousAmount: number;
  nextExpectedDate: string;
}

/**
 * Whether a counterparty's payments (oldest first) end in a regular series: at least three payments,
 * each one period after the one before within the cadence's tolerance and, for a series not known
 * before, at a similar amount. A series already known (`known`, its frequency) keeps going through a
 * change of amount, which the weekly insight then names. Only the run that ends with the latest
 * payment counts: a payment out of rhythm ends a series, and a later run starts a new one.
 */
export function detectSeries(payments: readonly Payment[], known?: RecurringFrequency): DetectedSeries | null {
  const n = payments.length;
  if (n < MIN_OCCURRENCES) return null;
  let best: { frequency: RecurringFrequency; start: number } | null = null;
  for (const frequency of Object.keys(CADENCES) as RecurringFrequency[]) {
    const c = CADENCES[frequency];
    let start = n - 1;
    while (start > 0) {
      const prev = payments[start - 1];
      const cur = payments[start];
      const gap = daysBetween(prev.date, cur.date);
      if (gap < c.minDays || gap > c.maxDays) break;
      if (frequency !== known && !similar(prev.amount, cur.amount)) break;
      start--;
    }
    if (n - start >= MIN_OCCURRENCES && (!best || start < best.start)) best = { frequency, start };
  }
  if (!best) return null;
  const run = payments.slice(best.start);
  const last = run[run.length - 1];
  const before = run.slice(0, -1).slice(-3);
  return {
    frequency: best.frequency,
    payments: run,
    expectedAmount: median(run.slice(-3).map((p) => p.amount)),
    lastAmount: last.amount,
    previousAmount: median(before.map((p) => p.amount)),
    nextExpectedDate: nextDate(best.frequency, last.date),
  };
}

export type RecurringStatus = 'active' | 'missing' | 'ended';

/**
 * Where a series stands on `day`: active until its expected date and grace have passed, then missing,
 * and ended once three payments in a row have not come.
 */
export function statusOn(frequency: RecurringFrequency, nextExpectedDate: string, day: string): RecurringStatus {
  const grace = CADENCES[frequency].graceDays;
  if (day <= addDays(nextExpectedDate, grace)) return 'active';
  const thirdMissed = nextDate(frequency, nextDate(frequency, nextExpectedDate));
  return day <= addDays(thirdMissed, grace) ? 'missing' : 'ended';
}

/** The day after which a payment expected on `nextExpectedDate` is missing. */
export const missingAfter = (frequency: RecurringFrequency, nextExpectedDate: string) =>
  addDays(nextExpectedDate, CADENCES[frequency].graceDays);

/** Whether the last payment moved the amount by more than `share` of what it was before. */
export const amountChanged = (previous: number, last: number, share: number) =>
  previous !== 0 && Math.abs(Math.abs(last) - Math.abs(previous)) > share * Math.abs(previous);
