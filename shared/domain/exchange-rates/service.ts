import type { Db } from '../../db/knex';
import { ExchangeRate } from '../../db/models';
import type { ReferenceRate } from '../../providers/exchange-rates';

/** The reference currency every stored rate is quoted against. */
export const RATE_BASE = 'EUR';
/** A rate this many days older than the receipt still converts it (weekends, bank holidays). */
const MAX_RATE_AGE_DAYS = 7;

/** Stores the rates, replacing a day's rate when the source corrects it. */
export async function upsertRates(db: Db, rates: ReferenceRate[], source: string): Promise<number> {
  const rows = rates.map((r) => ({ base: RATE_BASE, quote: r.currency, date: r.date, rate: r.rate, source, updatedAt: new Date() }));
  for (let i = 0; i < rows.length; i += 1000) {
    await ExchangeRate.query(db)
      .insert(rows.slice(i, i + 1000))
      .onConflict(['base', 'quote', 'date'])
      .merge(['rate', 'source', 'updatedAt']);
  }
  return rows.length;
}

/** Units of each currency per euro on `date` (the latest rate up to a week before); the newest rates when no date. */
export type Rates = ReadonlyMap<string, number>;

export async function ratesOn(db: Db, date: string | null): Promise<Rates> {
  const q = ExchangeRate.query(db)
    .distinctOn('quote')
    .select('quote', 'rate')
    .where({ base: RATE_BASE })
    .orderBy([{ column: 'quote' }, { column: 'date', order: 'desc' }]);
  if (date) q.whereRaw('date between ?::date - ?::int and ?::date', [date, MAX_RATE_AGE_DAYS, date]);
  const rows = await q;
  return new Map([[RATE_BASE, 1], ...rows.map((r) => [r.quote, r.rate] as const)]);
}

/** `amount` in `from` expressed in `to`, or null when a rate is missing. */
export function convert(amount: number, from: string, to: string, rates: Rates): number | null {
  if (from === to) return amount;
  const f = rates.get(from);
  const t = rates.get(to);
  return f && t ? (amount / f) * t : null;
}
