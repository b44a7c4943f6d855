import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import { isoDate } from '../../db/timestamps';
import { roundMoney } from '../currencies/money';
import { convert, ratesOn } from '../exchange-rates/service';
import { amountDueSql } from './amount-due';
import type { invoiceSummarySchema } from './schema';

type Summary = z.infer<typeof invoiceSummarySchema>;
// Outstanding and overdue money is what is still to be paid, not what was invoiced.
const DUE = amountDueSql();

type GroupName = 'draft' | 'outstanding' | 'overdue' | 'paidThisMonth';

/** Where an invoice's money stands, by group and currency, each group also in the base currency. */
export async function invoiceSummary(db: Db, teamId: string, now = new Date()): Promise<Summary> {
  const today = isoDate(now);
  const monthStart = `${today.slice(0, 7)}-01`;
  // One pass: an overdue invoice is also outstanding, so the groups are counted side by side.
  const rows = await db('invoices')
    .where({ teamId })
    .groupBy('currency')
    .select<
      {
        currency: string;
        draft: number;
        draftAmount: number;
        outstanding: number;
        outstandingAmount: number;
        overdue: number;
        overdueAmount: number;
        paidThisMonth: number;
        paidThisMonthAmount: number;
      }[]
    >(
      'currency',
      db.raw(`count(*) filter (where status = 'draft')::int as draft`),
      db.raw(`coalesce(sum(amount) filter (where status = 'draft'), 0)::float8 as draft_amount`),
      db.raw(`count(*) filter (where status in ('unpaid', 'overdue', 'scheduled'))::int as outstanding`),
      db.raw(`coalesce(sum(${DUE}) filter (where status in ('unpaid', 'overdue', 'scheduled')), 0)::float8 as outstanding_amount`),
      db.raw(`count(*) filter (where status = 'overdue' or (status = 'unpaid' and due_date < ?))::int as overdue`, [today]),
      db.raw(
        `coalesce(sum(${DUE}) filter (where status = 'overdue' or (status = 'unpaid' and due_date < ?)), 0)::float8 as overdue_amount`,
        [today],
      ),
      db.raw(`count(*) filter (where status = 'paid' and paid_at >= ?)::int as paid_this_month`, [monthStart]),
      db.raw(`coalesce(sum(amount) filter (where status = 'paid' and paid_at >= ?), 0)::float8 as paid_this_month_amount`, [monthStart]),
    );
  const team = await Team.query(db).findById(teamId).select('baseCurrency');
  const byUse = [...rows].sort((a, b) => b.draft + b.outstanding + b.paidThisMonth - (a.draft + a.outstanding + a.paidThisMonth));
  const base = team?.baseCurrency ?? (byUse.length ? byUse[0].currency.trim() : null);
  const rates = await ratesOn(db, null);
  const unconverted = new Set<string>();
  const group = (name: GroupName) => {
    let amount = 0;
    const byCurrency = rows
      .filter((r) => r[name] > 0)
      .map((r) => {
        const currency = r.currency.trim();
        const own = r[`${name}Amount`];
        const converted = base ? convert(own, currency, base, rates) : null;
        if (converted === null) unconverted.add(currency);
        else amount += converted;
        return { currency, count: r[name], amount: roundMoney(own, currency) };
      });
    return { count: byCurrency.reduce((n, c) => n + c.count, 0), amount: roundMoney(amount, base), byCurrency };
  };
  const summary = {
    currency: base,
    draft: group('draft'),
    outstanding: group('outstanding'),
    overdue: group('overdue'),
    paidThisMonth: group('paidThisMonth'),
  };
  return { ...summary, unconvertedCurrencies: [...unconverted].sort() };
}
