import { z } from 'zod';

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** An IANA time zone name, e.g. `Europe/Berlin`. */
export const timeZone = z.string().min(1).max(64).refine(isTimeZone, 'an IANA time zone such as Europe/Berlin');

/** Today's date (YYYY-MM-DD) where the person is. */
export function todayIn(tz: string, now = new Date()): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The instant a day (YYYY-MM-DD) begins in a time zone: midnight there, as a Date. */
export function startOfDayIn(day: string, tz: string): Date {
  return wallClockIn(day, 0, tz);
}

/**
 * The instant the clocks of a time zone show a time of a day (YYYY-MM-DD; the time in seconds after
 * midnight), as a Date. A time the clocks skip (a DST change) comes out as the instant an hour off.
 */
export function wallClockIn(day: string, secondOfDay: number, tz: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`) + secondOfDay * 1000;
  const clock = wallClockFormat(tz);
  // The zone's offset at a moment: its wall clock read as UTC, minus the moment.
  const offsetAt = (ms: number) => {
    const parts = clock.formatToParts(new Date(ms));
    const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - ms;
  };
  // Twice: the offset at the guess may differ from the offset at the answer across a DST change.
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}

/** What the clocks of a time zone show at an instant: its day (YYYY-MM-DD) and the second of that day. */
export function wallClockAt(at: Date, tz: string): { day: string; secondOfDay: number } {
  const parts = wallClockFormat(tz).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const pad = (v: number) => String(v).padStart(2, '0');
  return { day: `${n('year')}-${pad(n('month'))}-${pad(n('day'))}`, secondOfDay: n('hour') * 3600 + n('minute') * 60 + n('second') };
}

// A formatter costs far more to make than to use, and lists ask for the same few zones row after row.
const wallClocks = new Map<string, Intl.DateTimeFormat>();
function wallClockFormat(tz: string): Intl.DateTimeFormat {
  let format = wallClocks.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(tz, format);
  }
  return format;
}
