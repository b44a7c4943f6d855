import type { Db } from '../../db/knex';
import { isoDate } from '../../db/timestamps';
import { moneyRounder, roundMoney } from '../currencies/money';
import { todayIn } from '../common/time-zone';
import { amountDueSql } from '../invoices/amount-due';
import { addDays } from '../reports/period';
import { profitAndLoss, runway, spending } from '../reports/service';
import { recurringOfWeek } from '../recurring-payments/service';
import type { InsightSummary } from './schema';

/** Monday of the last week that has ended where the team is (on a Monday morning: the week just gone). */
export function lastCompleteWeek(timeZone: string, now = new Date()): string {
  const today = todayIn(timeZone, now);
  const sinceMonday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(today, -sinceMonday - 7);
}

/** The first day of the month `n` months before the month of `firstOfMonth`. */
function monthsBefore(firstOfMonth: string, n: number): string {
  const d = new Date(`${firstOfMonth}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return isoDate(d);
}

/** What a summary is computed with, from the config. */
export interface InsightOptions {
  /** RECURRING_AMOUNT_CHANGE_SHARE: a recurring payment moved by more than this share is named. */
  recurringChangeShare: number;
}

export const weekEnd = (weekStart: string) => addDays(weekStart, 6);

/** Items still waiting for a transaction or for someone's decision. */
const WAITING_INBOX = ['pending', 'suggested_match', 'no_match'];

/**
 * A week of the team's money, from the same services the reports use (so in the base currency, with
 * the same conversion and exclusions), beside the week before and the four weeks before.
 */
export async function computeWeeklySummary(db: Db, teamId: string, weekStart: string, options: InsightOptions): Promise<InsightSummary> {
  const week = { from: weekStart, to: weekEnd(weekStart) };
  const fourWeeks = { from: addDays(weekStart, -28), to: addDays(weekStart, -1) };
  const monthStart = `${weekStart.slice(0, 7)}-01`;
  const threeMonths = { from: monthsBefore(monthStart, 3), to: addDays(monthStart, -1) };

  const [pnl, spent, before, burn, uncategorised, waiting, overdue, recurring] = await Promise.all([
    profitAndLoss(db, teamId, week),
    spending(db, teamId, week),
    spending(db, teamId, fourWeeks),
    runway(db, teamId, threeMonths),
    db('transactions')
      .where({ teamId, internal: false })
      .whereBetween('date', [week.from, week.to])
      .whereIn('status', ['posted', 'completed'])
      .whereNull('categorySlug')
      .count<{ n: number }[]>('* as n'),
    db('inbox_items').where({ teamId }).whereIn('status', WAITING_INBOX).count<{ n: number }[]>('* as n'),
    db('invoices')
      .where({ teamId })
      .where((w) => {
        void w.where('status', 'overdue').orWhere((u) => void u.where('status', 'unpaid').where('dueDate', '<=', week.to));
      })
      .groupBy('currency')
      .select<{ currency: string; n: number; amount: number }[]>(
        'currency',
        db.raw('count(*)::int as n'),
        // What is still due on them, not what was invoiced.
        db.raw(`sum(${amountDueSql()})::float8 as amount`),
      ),
    recurringOfWeek(db, teamId, week, options.recurringChangeShare),
  ]);

  const round = moneyRounder(pnl.currency);
  const usual = new Map(before.categories.map((c) => [c.slug, c]));
  const slugs = new Map([...before.categories, ...spent.categories].map((c) => [c.slug, c.name]));
  const now = new Map(spent.categories.map((c) => [c.slug, c.amount]));
  const largestChanges = [...slugs]
    .map(([slug, name]) => {
      const amount = now.get(slug) ?? 0;
      const weeklyAverage = round((usual.get(slug)?.amount ?? 0) / 4);
      return { slug, name, amount, weeklyAverage, change: round(amount - weeklyAverage) };
    })
    .filter((c) => c.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.slug ?? '').localeCompare(b.slug ?? ''))
    .slice(0, 5);

  return {
    currency: pnl.currency,
    income: pnl.income,
    spending: pnl.expenses,
    profit: pnl.profit,
    previousWeek: { income: pnl.previous.income, spending: pnl.previous.expenses },
    largestChanges,
    uncategorisedTransactions: uncategorised[0].n,
    receiptsWaiting: waiting[0].n,
    overdueInvoices: {
      count: overdue.reduce((n, r) => n + r.n, 0),
      totals: overdue.map((r) => ({ currency: r.currency.trim(), amount: roundMoney(r.amount, r.currency) })),
    },
    runway: { balance: burn.balance, monthlyBurn: burn.monthlyBurn, runwayMonths: burn.runwayMonths },
    unconvertedTransactions: pnl.conversion.unconvertedTransactions,
    recurringPayments: recurring,
  };
}
