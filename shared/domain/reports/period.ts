import { isoDate } from '../../db/timestamps';

const DAY_MS = 86_400_000;

/** The day `n` days after `day` (before, when negative), both YYYY-MM-DD. */
export const addDays = (day: string, n: number) => isoDate(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** The period of the same number of days that ends the day before `from`: what a report compares with. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** Every month (YYYY-MM) the period touches, in order. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.slice(0, 7).split('-').map(Number);
  const [ty, tm] = to.slice(0, 7).split('-').map(Number);
  while (y < ty || (y === ty && m <= tm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    if (m === 12) {
      y += 1;
      m = 1;
    } else {
      m += 1;
    }
  }
  return out;
}
