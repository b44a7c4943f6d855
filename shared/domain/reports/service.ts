import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { accountsWithBalances } from '../bank-accounts/service';
import { Team } from '../../db/models';
import { moneyRounder } from '../currencies/money';
import { convert, ratesOn } from '../exchange-rates/service';
import { monthsBetween, previousPeriod } from './period';
import type {
  burnRateSchema,
  cashFlowSchema,
  expensesSchema,
  profitAndLossSchema,
  ReportQuery,
  revenueSchema,
  RevenueQuery,
  runwaySchema,
  spendingSchema,
} from './schema';
import { type MonthTotal, monthlyTotals, NO_CONVERSION } from './totals';

/** The report currency: the one asked for, else the team's base currency, else its most used one. */
async function reportCurrency(db: Db, teamId: string, asked?: string): Promise<string | null> {
  if (asked) return asked;
  const team = await Team.query(db).findById(teamId).select('baseCurrency');
  if (team?.baseCurrency) return team.baseCurrency;
  const top = await db('transaction_daily_totals')
    .where({ teamId })
    .groupBy('currency')
    .orderByRaw('sum(income_count + expense_count) desc')
    .first<{ currency: string } | undefined>('currency');
  return top?.currency.trim() ?? null;
}

/** A report narrowed to some categories (the assistant's "revenue from consulting"): their slugs. */
export interface CategoryFilter {
  categories?: readonly string[];
}

/** Everything a report starts from: its currency, both periods and the converted monthly totals. */
async function reportBasis(db: Db, teamId: string, q: ReportQuery, opts: { withExcludedCategories?: boolean } & CategoryFilter = {}) {
  const currency = await reportCurrency(db, teamId, q.currency);
  const previous = previousPeriod(q.from, q.to);
  const { categories, ...scope } = opts;
  const totals = currency
    ? await monthlyTotals(db, { teamId, currency, from: q.from, to: q.to, previousFrom: previous.from, ...scope })
    : { rows: [], conversion: NO_CONVERSION, previousConversion: NO_CONVERSION };
  const { conversion, previousConversion } = totals;
  // The totals are a few rows per month and category: narrowing them here keeps one query for every report.
  const rows = categories ? totals.rows.filter((r) => r.categorySlug !== null && categories.includes(r.categorySlug)) : totals.rows;
  const header = { currency, from: q.from, to: q.to, conversion };
  const current = rows.filter((r) => r.current);
  const before = rows.filter((r) => !r.current);
  // Every figure in the report currency's minor unit (none known: cents).
  const round = moneyRounder(currency);
  return {
    header,
    round,
    sum: (of: MonthTotal[], pick: (r: MonthTotal) => number) => round(of.reduce((s, r) => s + pick(r), 0)),
    // The comparison's figures miss what could not be converted as much as the period's do: said for both.
    previous: { ...previous, conversion: previousConversion },
    current,
    before,
    months: monthsBetween(q.from, q.to),
    previousMonths: monthsBetween(previous.from, previous.to),
  };
}

const inMonth = (rows: MonthTotal[], month: string) => rows.filter((r) => r.month === month);
const ratio = (now: number, before: number) => (before === 0 ? null : Math.round((now / before - 1) * 10_000) / 10_000);

export async function profitAndLoss(
  db: Db,
  teamId: string,
  q: ReportQuery,
  filter: CategoryFilter = {},
): Promise<z.infer<typeof profitAndLossSchema>> {
  const b = await reportBasis(db, teamId, q, filter);
  const { sum, round } = b;
  const figures = (rows: MonthTotal[]) => {
    const income = sum(rows, (r) => r.income);
    const expenses = sum(rows, (r) => r.expenses);
    return { income, expenses, profit: round(income - expenses) };
  };
  return {
    ...b.header,
    ...figures(b.current),
    previous: { ...b.previous, ...figures(b.before) },
    months: b.months.map((month) => ({ month, ...figures(inMonth(b.current, month)) })),
  };
}

export async function revenue(db: Db, teamId: string, q: RevenueQuery): Promise<z.infer<typeof revenueSchema>> {
  const b = await reportBasis(db, teamId, q);
  const { sum } = b;
  const pick = q.type === 'net' ? (r: MonthTotal) => r.income - r.incomeTax : (r: MonthTotal) => r.income;
  const total = sum(b.current, pick);
  const previousTotal = sum(b.before, pick);
  return {
    ...b.header,
    type: q.type,
    total,
    previous: { ...b.previous, total: previousTotal },
    change: ratio(total, previousTotal),
    months: b.months.map((month, i) => ({
      month,
      current: sum(inMonth(b.current, month), pick),
      previous: sum(inMonth(b.before, b.previousMonths[i] ?? ''), pick),
    })),
  };
}

export async function expenses(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof expensesSchema>> {
  const b = await reportBasis(db, teamId, q);
  const { sum, round } = b;
  const split = (rows: MonthTotal[]) => {
    const recurring = sum(
      rows.filter((r) => r.recurring),
      (r) => r.expenses,
    );
    const oneOff = sum(
      rows.filter((r) => !r.recurring),
      (r) => r.expenses,
    );
    return { recurring, oneOff, total: round(recurring + oneOff) };
  };
  const now = split(b.current);
  return {
    ...b.header,
    ...now,
    averagePerMonth: round(now.total / b.months.length),
    previous: { ...b.previous, ...split(b.before) },
    months: b.months.map((month) => ({ month, ...split(inMonth(b.current, month)) })),
  };
}

export async function spending(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof spendingSchema>> {
  const b = await reportBasis(db, teamId, q);
  const { sum, round } = b;
  const bySlug = (rows: MonthTotal[]) => {
    const m = new Map<string | null, { amount: number; name: string | null; color: string | null }>();
    for (const r of rows) {
      const c = m.get(r.categorySlug) ?? { amount: 0, name: r.categoryName, color: r.categoryColor };
      c.amount += r.expenses;
      m.set(r.categorySlug, c);
    }
    return m;
  };
  const now = bySlug(b.current);
  const before = bySlug(b.before);
  const total = sum(b.current, (r) => r.expenses);
  const categories = [...now]
    .filter(([, c]) => round(c.amount) !== 0)
    .map(([slug, c]) => ({
      slug,
      name: c.name ?? (slug === null ? 'Uncategorised' : slug),
      color: c.color,
      amount: round(c.amount),
      share: total ? Math.round((c.amount / total) * 10_000) / 10_000 : 0,
      previousAmount: round(before.get(slug)?.amount ?? 0),
    }))
    .sort((x, y) => y.amount - x.amount || (x.slug ?? '').localeCompare(y.slug ?? ''));
  return { ...b.header, total, previous: { ...b.previous, total: sum(b.before, (r) => r.expenses) }, categories };
}

export async function burnRate(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof burnRateSchema>> {
  const b = await reportBasis(db, teamId, q);
  const { sum, round } = b;
  const burnOf = (rows: MonthTotal[]) =>
    Math.max(
      0,
      sum(rows, (r) => r.expenses - r.income),
    );
  const average = (rows: MonthTotal[], months: string[]) => round(months.reduce((s, m) => s + burnOf(inMonth(rows, m)), 0) / months.length);
  return {
    ...b.header,
    averageMonthlyBurn: average(b.current, b.months),
    previous: { ...b.previous, averageMonthlyBurn: average(b.before, b.previousMonths) },
    months: b.months.map((month) => ({ month, burn: burnOf(inMonth(b.current, month)) })),
  };
}

export async function cashFlow(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof cashFlowSchema>> {
  const b = await reportBasis(db, teamId, q, { withExcludedCategories: true });
  const { sum, round } = b;
  const flow = (rows: MonthTotal[]) => {
    const inflow = sum(rows, (r) => r.income);
    const outflow = sum(rows, (r) => r.expenses);
    return { inflow, outflow, net: round(inflow - outflow) };
  };
  let cumulative = 0;
  return {
    ...b.header,
    ...flow(b.current),
    previous: { ...b.previous, ...flow(b.before) },
    months: b.months.map((month) => {
      const f = flow(inMonth(b.current, month));
      cumulative = round(cumulative + f.net);
      return { month, ...f, cumulative };
    }),
  };
}

/** A profit and loss's average net money out per month, 0 when the team made money: the runway's burn. */
export const monthlyBurnOf = (pnl: Pick<z.infer<typeof profitAndLossSchema>, 'currency' | 'profit' | 'months'>): number =>
  moneyRounder(pnl.currency)(Math.max(0, -pnl.profit / (pnl.months.length || 1)));

export async function runway(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof runwaySchema>> {
  const [pnl, accounts, rates] = await Promise.all([
    profitAndLoss(db, teamId, q),
    // Manual accounts' balances are computed from their opening balance and transactions.
    accountsWithBalances(db, teamId).where('bank_accounts.enabled', true),
    ratesOn(db, null),
  ]);
  const currency = pnl.currency;
  let balance = 0;
  const accountsLeftOut: z.infer<typeof runwaySchema>['accountsLeftOut'] = [];
  for (const a of accounts) {
    const own = a.balance ?? 0;
    const converted = currency ? convert(own, a.currency, currency, rates) : null;
    if (converted === null) accountsLeftOut.push({ id: a.id, name: a.name, currency: a.currency, balance: own });
    else balance += converted;
  }
  const round = moneyRounder(currency);
  const monthlyBurn = monthlyBurnOf(pnl);
  return {
    currency,
    from: pnl.from,
    to: pnl.to,
    conversion: pnl.conversion,
    balance: round(balance),
    monthlyBurn,
    runwayMonths: monthlyBurn > 0 ? Math.round((balance / monthlyBurn) * 10) / 10 : null,
    accountsLeftOut,
  };
}
