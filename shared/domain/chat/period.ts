/** A date range a question names, inclusive, as reports take it. */
export interface Period {
  from: string;
  to: string;
  /** How the question said it ("last month"), for the answer. */
  label: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const SHORT = new Map<string, number>([
  ...MONTHS.map((m, i): [string, number] => [m, i]),
  ...MONTHS.map((m, i): [string, number] => [m.slice(0, 3), i]),
  ['sept', 8],
]);

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD of a day; months and days out of range roll over (month 12 is next January, day 0 the last of the month before). */
export const ymd = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m, d));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
};
const parts = (day: string) => day.split('-').map(Number) as [number, number, number];
const monthRange = (y: number, m: number) => ({ from: ymd(y, m, 1), to: ymd(y, m + 1, 0) });
const addDays = (day: string, n: number) => {
  const [y, m, d] = parts(day);
  return ymd(y, m - 1, d + n);
};

/** The month so far: what a question without a period means. */
export function monthToDate(today: string): Period {
  const [y, m] = parts(today);
  return { from: ymd(y, m - 1, 1), to: today, label: 'this month' };
}

/** The last `n` complete months: a fair base for a monthly burn. */
export function lastFullMonths(today: string, n: number): Period {
  const [y, m] = parts(today);
  return { from: ymd(y, m - 1 - n, 1), to: ymd(y, m - 1, 0), label: `the last ${n} full months` };
}

type Rule = [RegExp, (m: RegExpExecArray, today: string) => Omit<Period, 'label'> | null];

// Each pattern swallows the preposition before it, so the rest of the question reads cleanly without it.
const PRE = String.raw`(?:\b(?:in|for|during|over|from|of|since)\s+)?(?:the\s+)?`;
const MONTH = String.raw`(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`;

const RULES: Rule[] = [
  [new RegExp(String.raw`${PRE}\btoday\b`), (_m, t) => ({ from: t, to: t })],
  [new RegExp(String.raw`${PRE}\byesterday\b`), (_m, t) => ({ from: addDays(t, -1), to: addDays(t, -1) })],
  [new RegExp(String.raw`${PRE}\b(?:year to date|ytd)\b`), (_m, t) => ({ from: `${t.slice(0, 4)}-01-01`, to: t })],
  [
    new RegExp(String.raw`${PRE}\b(?:last|past|previous)\s+(\d{1,3})\s+(day|week|month|year)s?\b`),
    (m, t) => {
      const n = Number(m[1]);
      const [y, mo, d] = parts(t);
      if (n < 1) return null;
      if (m[2] === 'day') return { from: addDays(t, 1 - n), to: t };
      if (m[2] === 'week') return { from: addDays(t, 1 - 7 * n), to: t };
      if (m[2] === 'month') return { from: ymd(y, mo - 1 - n, d + 1), to: t };
      return { from: ymd(y - n, mo - 1, d + 1), to: t };
    },
  ],
  [
    new RegExp(String.raw`${PRE}\b(this|current|last|previous|past)\s+(week|month|quarter|year)\b`),
    (m, t) => {
      const back = m[1] === 'this' || m[1] === 'current' ? 0 : 1;
      const [y, mo] = parts(t);
      if (m[2] === 'week') {
        const weekday = (new Date(`${t}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
        const monday = addDays(t, -weekday - 7 * back);
        return { from: monday, to: back ? addDays(monday, 6) : t };
      }
      if (m[2] === 'month') return back ? monthRange(y, mo - 2) : { from: ymd(y, mo - 1, 1), to: t };
      if (m[2] === 'quarter') {
        const q = Math.floor((mo - 1) / 3) - back;
        return back ? { from: ymd(y, q * 3, 1), to: ymd(y, q * 3 + 3, 0) } : { from: ymd(y, q * 3, 1), to: t };
      }
      return back ? { from: `${y - 1}-01-01`, to: `${y - 1}-12-31` } : { from: `${y}-01-01`, to: t };
    },
  ],
  [
    new RegExp(String.raw`${PRE}\bq([1-4])(?:\s+(\d{4}))?\b`),
    (m, t) => {
      const q = Number(m[1]) - 1;
      const [ty, tm] = parts(t);
      // Without a year: the latest such quarter that has begun.
      const y = m[2] ? Number(m[2]) : q * 3 + 1 > tm ? ty - 1 : ty;
      return { from: ymd(y, q * 3, 1), to: ymd(y, q * 3 + 3, 0) };
    },
  ],
  [
    // "may" alone is usually a verb: as a month it needs a preposition or a year.
    new RegExp(String.raw`${PRE}\b${MONTH}\b(?:\s+(\d{4}))?`),
    (m, t) => {
      if (m[1] === 'may' && !m[2] && !/^\s*\w/.test(m[0].slice(0, m[0].indexOf('may')))) return null;
      const month = SHORT.get(m[1]);
      if (month === undefined) return null;
      const [ty, tm] = parts(t);
      const y = m[2] ? Number(m[2]) : month + 1 > tm ? ty - 1 : ty;
      return monthRange(y, month);
    },
  ],
  [new RegExp(String.raw`${PRE}\b(20\d{2})\b`), (m) => ({ from: `${m[1]}-01-01`, to: `${m[1]}-12-31` })],
];

/**
 * The period a question names ("last month", "in March", "Q3 2025", "the last 30 days", "2025"),
 * relative to `today` where the asker is; with the phrase that said it, so it can be taken out.
 */
export function parsePeriod(lower: string, today: string): { period: Period; phrase: string; index: number } | null {
  for (const [pattern, toRange] of RULES) {
    const m = pattern.exec(lower);
    if (!m) continue;
    const range = toRange(m, today);
    if (!range) continue;
    return { period: { ...range, label: m[0].trim() }, phrase: m[0], index: m.index };
  }
  return null;
}
