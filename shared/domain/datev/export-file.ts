import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import { withinTeam } from '../../db/team-wall';
import { minorUnitsOf, roundMoney } from '../currencies/money';
import { ratesOn, type Rates } from '../exchange-rates/service';
import type { TransactionDto, TransactionFilterBody } from '../transactions/schema';
import { accountPlanOf, taxKeyOf, type AccountPlan } from './accounts';
import { extfHead, extfLine, toWindows1252 } from './extf';

/** Statuses that are not bookings yet (pending) or were set aside by the user (excluded). */
const NOT_BOOKED = new Set(['pending', 'excluded']);

export interface DatevFile {
  /** Where it was written, and its name in the ZIP (one per fiscal year: a Buchungsstapel lies within one). */
  path: string;
  name: string;
  bookings: number;
}

interface Batch {
  out: WriteStream;
  file: DatevFile;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The fiscal year a date is in, from the team's first month (January when unset). */
function fiscalYearOf(date: string, startMonth: number): { start: string; end: string } {
  const [y, m] = date.split('-').map(Number);
  const year = m >= startMonth ? y : y - 1;
  const start = `${year}-${pad(startMonth)}-01`;
  const next = new Date(Date.UTC(year + 1, startMonth - 1, 1) - 86_400_000);
  return { start, end: next.toISOString().slice(0, 10) };
}

/**
 * The EXTF Buchungsstapel files of an export: each transaction is one booking between its bank
 * account's ledger account (Konto) and its category's (Gegenkonto), debit when money came in. A
 * transfer between the team's own accounts books against Geldtransit; a category without an account
 * against the suspense account. The VAT rate (the transaction's, else its category's) gives the tax key.
 */
export async function openDatevExport(
  db: Db,
  req: { teamId: string; filters: TransactionFilterBody; createdAt: Date },
  dir: string,
): Promise<{ add(t: TransactionDto): Promise<void>; finish(): Promise<DatevFile[]> }> {
  const [plan, team] = await withinTeam(req.teamId, () =>
    Promise.all([
      accountPlanOf(db, req.teamId),
      Team.query(db).findById(req.teamId).select('name', 'baseCurrency', 'fiscalYearStartMonth'),
    ]),
  );
  if (plan.consultantNumber === null || plan.clientNumber === null) throw new Error('the team has no DATEV consultant and client number');
  const consultantNumber = plan.consultantNumber;
  const clientNumber = plan.clientNumber;
  const currency = team?.baseCurrency?.trim() ?? 'EUR';
  const startMonth = team?.fiscalYearStartMonth ?? 1;
  const batches = new Map<string, Batch>();
  const rates = new Map<string, Rates>();

  const batchFor = (date: string): Batch => {
    const fy = fiscalYearOf(date, startMonth);
    const open = batches.get(fy.start);
    if (open) return open;
    const from = req.filters.from && req.filters.from > fy.start ? req.filters.from : fy.start;
    const to = req.filters.to && req.filters.to < fy.end ? req.filters.to : fy.end;
    const name = `EXTF_Buchungsstapel_${fy.start}.csv`;
    const file = { path: path.join(dir, name), name, bookings: 0 };
    const out = createWriteStream(file.path);
    const head = extfHead({
      createdAt: req.createdAt,
      consultantNumber,
      clientNumber,
      fiscalYearStart: fy.start,
      accountLength: plan.accountLength,
      from,
      to,
      label: `Bank ${from} – ${to}`,
      currency,
      exportedBy: (team?.name ?? '').slice(0, 25),
    });
    out.write(toWindows1252(head));
    const batch = { out, file };
    batches.set(fy.start, batch);
    return batch;
  };

  const rateOn = async (date: string, of: string): Promise<number | null> => {
    let day = rates.get(date);
    if (!day) {
      day = await ratesOn(db, date);
      rates.set(date, day);
    }
    const f = day.get(of);
    const t = day.get(currency);
    // Units of the transaction's currency per unit of the batch's, as DATEV's Kurs is given.
    return f && t ? f / t : null;
  };

  return {
    async add(t) {
      if (t.amount === 0 || NOT_BOOKED.has(t.status)) return;
      const batch = batchFor(t.date);
      const line = bookingOf(t, plan, currency, t.currency === currency ? null : await rateOn(t.date, t.currency));
      if (!batch.out.write(toWindows1252(extfLine(line, minorUnitsOf(t.currency))))) await once(batch.out, 'drain');
      batch.file.bookings++;
    },
    async finish() {
      for (const { out } of batches.values()) {
        out.end();
        await once(out, 'finish');
      }
      return [...batches.values()].map((b) => b.file).sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}

function bookingOf(t: TransactionDto, plan: AccountPlan, currency: string, rate: number | null) {
  const income = t.amount > 0;
  const taxRate = t.taxRate ?? plan.categoryRate(t.category?.slug);
  return {
    amount: Math.abs(t.amount),
    side: income ? ('S' as const) : ('H' as const),
    currency: t.currency,
    rate: rate === null ? null : Math.round(rate * 1_000_000) / 1_000_000,
    baseAmount: rate === null ? null : roundMoney(Math.abs(t.amount) / rate, currency),
    baseCurrency: rate === null ? null : currency,
    account: plan.bankAccount(t.account?.id).account,
    contraAccount: t.internal ? plan.transitAccount : plan.category(t.category?.slug).account,
    taxKey: t.internal ? null : taxKeyOf(taxRate, income ? 'income' : 'expense'),
    date: t.date,
    reference: t.id,
    text: t.name,
  };
}
