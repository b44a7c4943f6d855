import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import type { profitAndLossSchema, ReportQuery, runwaySchema, spendingSchema } from './schema';

// Reports are aggregation SQL over many rows: Knex, with every selected row typed.

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The report currency: the one asked for, else the team's base currency, else its most used one. */
async function reportCurrency(db: Db, teamId: string, asked?: string): Promise<string | null> {
  if (asked) return asked;
  const team = await Team.query(db).findById(teamId).select('baseCurrency');
  if (team?.baseCurrency) return team.baseCurrency;
  const top = await db('transactions')
    .where({ teamId })
    .groupBy('currency')
    .orderByRaw('count(*) desc')
    .first<{ currency: string } | undefined>('currency');
  return top?.currency ?? null;
}

/** Transactions that count for reports: booked, not transfers between own accounts, not in excluded categories. */
function reportable(db: Db, teamId: string, q: ReportQuery, currency: string | null) {
  return db('transactions as t')
    .leftJoin('transaction_categories as c', function () {
      this.on('c.team_id', '=', 't.team_id').andOn('c.slug', '=', 't.category_slug');
    })
    .where('t.team_id', teamId)
    .where('t.currency', currency ?? '')
    .whereIn('t.status', ['posted', 'completed'])
    .where('t.internal', false)
    .whereBetween('t.date', [q.from, q.to])
    .where((w) => {
      w.whereNull('c.id').orWhere('c.excluded', false);
    });
}

export async function profitAndLoss(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof profitAndLossSchema>> {
  const currency = await reportCurrency(db, teamId, q.currency);
  const rows = await reportable(db, teamId, q, currency)
    .select<{ month: string; income: number; expenses: number }[]>(
      db.raw(`to_char(t.date, 'YYYY-MM') as month`),
      db.raw('coalesce(sum(t.amount) filter (where t.amount > 0), 0)::float8 as income'),
      db.raw('coalesce(-sum(t.amount) filter (where t.amount < 0), 0)::float8 as expenses'),
    )
    .groupByRaw(`to_char(t.date, 'YYYY-MM')`);
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const months = monthsBetween(q.from, q.to).map((m) => {
    const r = byMonth.get(m);
    const income = round2(r?.income ?? 0);
    const expenses = round2(r?.expenses ?? 0);
    return { month: m, income, expenses, profit: round2(income - expenses) };
  });
  const income = round2(months.reduce((s, m) => s + m.income, 0));
  const expenses = round2(months.reduce((s, m) => s + m.expenses, 0));
  return { currency, from: q.from, to: q.to, income, expenses, profit: round2(income - expenses), months };
}

export async function spending(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof spendingSchema>> {
  const currency = await reportCurrency(db, teamId, q.currency);
  const rows = await reportable(db, teamId, q, currency)
    .where('t.amount', '<', 0)
    .select<{ slug: string | null; name: string | null; amount: number }[]>(
      't.category_slug as slug',
      db.raw('max(c.name) as name'),
      db.raw('(-sum(t.amount))::float8 as amount'),
    )
    .groupBy('t.category_slug')
    .orderBy('amount', 'desc');
  const total = rows.reduce((s, r) => s + r.amount, 0);
  return {
    currency,
    total: round2(total),
    categories: rows.map((r) => ({
      slug: r.slug,
      name: r.name ?? 'Uncategorised',
      amount: round2(r.amount),
      share: total ? Math.round((r.amount / total) * 10_000) / 10_000 : 0,
    })),
  };
}

export async function runway(db: Db, teamId: string, q: ReportQuery): Promise<z.infer<typeof runwaySchema>> {
  const currency = await reportCurrency(db, teamId, q.currency);
  const pnl = await profitAndLoss(db, teamId, { ...q, currency: currency ?? undefined });
  const [{ balance }] = await db('bank_accounts')
    .where({ teamId, enabled: true, currency: currency ?? '' })
    .select<{ balance: number }[]>(db.raw('coalesce(sum(balance), 0)::float8 as balance'));
  const monthCount = pnl.months.length || 1;
  const monthlyBurn = round2(Math.max(0, -pnl.profit / monthCount));
  return {
    currency,
    balance: round2(balance),
    monthlyBurn,
    runwayMonths: monthlyBurn > 0 ? Math.round((balance / monthlyBurn) * 10) / 10 : null,
  };
}

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
