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
