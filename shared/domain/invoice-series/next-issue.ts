import type { CalendarSpec, IntervalSpec, LooseRange } from '@temporalio/client';
import { msToNumber } from '@temporalio/common/lib/time';
import { seriesScheduleSpec, type SeriesRhythm } from '../../temporal/invoice-series/calls';
import { wallClockAt, wallClockIn } from '../common/time-zone';
import { addDays } from '../reports/period';

/**
 * When the series' schedule issues its next invoice, read from the spec the schedule itself is made
 * of (`seriesScheduleSpec`) rather than asked of Temporal, so a list of series costs no call per row.
 * Null while paused or ended, and when the next time would come after the series' end.
 */
export function nextSeriesIssueAt(rhythm: SeriesRhythm, now = new Date()): Date | null {
  if (rhythm.status !== 'active') return null;
  const spec = seriesScheduleSpec(rhythm);
  // Temporal's next action comes after now and not before the spec's start.
  const after = Math.max(now.getTime(), (spec.startAt?.getTime() ?? -Infinity) - 1);
  const times = [
    ...(spec.intervals ?? []).map((i) => nextOfInterval(i, after)),
    ...(spec.calendars ?? []).map((c) => nextOfCalendar(c, spec.timezone ?? 'UTC', after)),
  ].filter((t): t is number => t !== null);
  if (!times.length) return null;
  const next = Math.min(...times);
  return spec.endAt && next > spec.endAt.getTime() ? null : new Date(next);
}

/** `epoch + n × every + offset`, both rounded to the second as Temporal takes them: the first after `after`. */
function nextOfInterval(i: IntervalSpec, after: number): number {
  const second = (ms: number) => Math.round(ms / 1000) * 1000;
  const every = Math.max(1000, second(msToNumber(i.every)));
  const offset = i.offset === undefined ? 0 : second(msToNumber(i.offset));
  return (Math.floor((after - offset) / every) + 1) * every + offset;
}

const MONTH_NUMBERS: Record<string, number> = Object.fromEntries(
  ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'].map((m, i) => [
    m,
    i + 1,
  ]),
);
const WEEKDAY_NUMBERS: Record<string, number> = Object.fromEntries(
  ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'].map((d, i) => [d, i]),
);

type Field<U> = LooseRange<U> | LooseRange<U>[] | '*' | undefined;

/**
 * Whether a calendar field matches a value: a value, a range with an end and a step, or a list of
 * those; `*` is any, and a field left out is `any` (`dflt: null`) or one value, as Temporal reads it.
 */
function matcher<U extends number | string>(field: Field<U>, dflt: number | null, toNumber: (u: U) => number) {
  if (field === '*' || (field === undefined && dflt === null)) return () => true;
  if (field === undefined) return (v: number) => v === dflt;
  const ranges = (Array.isArray(field) ? field : [field]).map((r) => {
    if (typeof r !== 'object') return { start: toNumber(r), end: toNumber(r), step: 1 };
    const start = toNumber(r.start);
    const end = r.end === undefined ? start : Math.max(start, toNumber(r.end));
    return { start, end, step: 'step' in r && r.step && r.step >= 1 ? r.step : 1 };
  });
  return (v: number) => ranges.some((r) => v >= r.start && v <= r.end && (v - r.start) % r.step === 0);
}

/** Days a calendar is searched ahead: a year and a bit holds the next match of any of ours. */
const SEARCH_DAYS = 400;

/**
 * The first time after `after` whose wall clock in `tz` every field of the calendar matches. Times the
 * clocks skip are not matched (as Temporal matches the wall clock literally); a time shown twice is
 * matched the first time.
 */
function nextOfCalendar(c: CalendarSpec, tz: string, after: number): number | null {
  const asNumber = (u: number | string) => Number(u);
  const second = matcher(c.second, 0, asNumber);
  const minute = matcher(c.minute, 0, asNumber);
  const hour = matcher(c.hour, 0, asNumber);
  const dayOfMonth = matcher(c.dayOfMonth, null, asNumber);
  const month = matcher(c.month, null, (m) => MONTH_NUMBERS[m]);
  const year = matcher(c.year, null, asNumber);
  const dayOfWeek = matcher(c.dayOfWeek, null, (d) => WEEKDAY_NUMBERS[d]);
  const secondsOfDay: number[] = [];
  for (let h = 0; h < 24; h++) {
    if (!hour(h)) continue;
    for (let m = 0; m < 60; m++) if (minute(m)) for (let s = 0; s < 60; s++) if (second(s)) secondsOfDay.push(h * 3600 + m * 60 + s);
  }
  const first = wallClockAt(new Date(after), tz).day;
  for (let d = 0; d < SEARCH_DAYS; d++) {
    const day = addDays(first, d);
    const date = new Date(`${day}T00:00:00Z`);
    const matches =
      year(date.getUTCFullYear()) && month(date.getUTCMonth() + 1) && dayOfMonth(date.getUTCDate()) && dayOfWeek(date.getUTCDay());
    if (!matches) continue;
    for (const s of secondsOfDay) {
      const at = wallClockIn(day, s, tz);
      const shown = wallClockAt(at, tz);
      if (at.getTime() > after && shown.day === day && shown.secondOfDay === s) return at.getTime();
    }
  }
  return null;
}
