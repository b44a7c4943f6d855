/**
 * How a run's summary is written: the one line the Temporal UI shows for it in the list, so an
 * operator sees what the run is about without opening it. Each workflow's calls.ts composes its own
 * from these, so every summary reads alike: facts joined by a middle dot, money and dates in one
 * format whatever the team's locale.
 */

/**
 * The UI renders a summary as markdown, and the facts come from users and senders (a customer's name,
 * an emailed file's name): a fact cannot make a link or markup of its own, nor break onto a second line.
 */
const plain = (fact: string) =>
  fact
    .replace(/\s+/g, ' ')
    .replace(/[\\[\]<>]/g, '\\$&')
    .trim();

/** The facts that are known, in order, as one line. */
export function summaryLine(...facts: (string | null | undefined)[]): string {
  return facts
    .filter((f): f is string => !!f?.trim())
    .map(plain)
    .join(' · ');
}

/** `€690.20`, `¥690`: the currency's own symbol and minor unit. */
export const money = (amount: number, currency: string): string =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

/** `12 Dec 2026`, for a `YYYY-MM-DD` date or a moment (read in UTC). */
export function day(date: string | Date): string {
  const at = typeof date === 'string' ? new Date(`${date.slice(0, 10)}T00:00:00Z`) : date;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(at);
}
