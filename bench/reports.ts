/**
 * The reports: one team with 1,000,000 transactions over three years in EUR, USD and GBP
 * across 20 categories, with daily ECB rates (seeded once, kept on DATABASE_URL's server), then 210
 * report calls one after another: each of the seven reports over a month, a quarter, a year and three
 * years. Prints p50 and p99 of the report services (the SQL, the conversion and the shaping; the
 * gateway around them is measured by bench/transactions.ts). Goal: p99 under 200 ms.
 *
 * The comparator is the bare query a report would run without the daily totals: one year's profit
 * and loss summed straight from the transactions, converted by a join on the rates.
 *
 *   npx tsx bench/reports.ts
 *   TRANSACTIONS=100000 npx tsx bench/reports.ts
 */
import { performance } from 'node:perf_hooks';
import { Team } from '../shared/db/models';
import type { Db } from '../shared/db/knex';
import type { ReportQuery } from '../shared/domain/reports/schema';
import { burnRate, cashFlow, expenses, profitAndLoss, revenue, runway, spending } from '../shared/domain/reports/service';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { benchDatabase, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms, percentile } from './lib/latency';
import { runMain } from './lib/run-main';

const TRANSACTIONS = Number(process.env.TRANSACTIONS ?? 1_000_000);
const DAYS = 3 * 365;
const LAST_DAY = '2026-10-31';
const BATCH = 250_000;

async function seededTeam(db: Db): Promise<string> {
  const name = `bench-reports-${TRANSACTIONS}`;
  let team = await Team.query(db).findOne({ name });
  if (!team) ({ team } = await createUserWithTeam(db, { email: `${name}@example.com`, teamName: name }));
  const teamId = team.id;
  await Team.query(db).findById(teamId).patch({ baseCurrency: 'EUR' });
  const [{ n }] = await db('transactions').where({ teamId }).count<Array<{ n: string }>>('* as n');
  if (Number(n) === TRANSACTIONS) return teamId;

  console.log(`seeding ${TRANSACTIONS.toLocaleString()} transactions and ${DAYS} days of rates (once)…`);
  await db('transactions').where({ teamId }).delete();
  await db('transaction_categories').where({ teamId }).delete();
  await db('transaction_categories').insert(
    Array.from({ length: 20 }, (_, i) => ({ teamId, name: `Category ${i}`, slug: `category-${i}`, excluded: i === 19 })),
  );
  // Weekdays only, as the ECB publishes: weekend transactions convert at Friday's rate.
  await db.raw(
    `insert into exchange_rates (base, quote, date, rate, source)
     select 'EUR', q.quote, d::date, q.base_rate * (1 + 0.05 * sin(extract(doy from d) / 20.0)), 'bench'
       from generate_series(date '${LAST_DAY}' - ${DAYS + 7}, date '${LAST_DAY}', interval '1 day') d,
            (values ('USD', 1.08), ('GBP', 0.86)) q(quote, base_rate)
      where extract(isodow from d) < 6
     on conflict (base, quote, date) do nothing`,
  );
  for (let from = 1; from <= TRANSACTIONS; from += BATCH) {
    await db.raw(
      `insert into transactions (team_id, date, name, amount, currency, category_slug, recurring, tax_rate, provider_transaction_id, method)
       select ?, date '${LAST_DAY}' - (g % ${DAYS}), 'Payee ' || (g % 5000),
              case when g % 5 = 0 then (g % 50000) / 10.0 else -((g % 20000) / 10.0) end,
              case when g % 20 = 0 then 'GBP' when g % 7 = 0 then 'USD' else 'EUR' end,
              case when g % 11 = 0 then null else 'category-' || (g % 20) end,
              g % 10 = 0, case when g % 3 = 0 then 19 end, 'bench-' || g, 'card_purchase'
         from generate_series(?::int, ?::int) g`,
      [teamId, from, Math.min(TRANSACTIONS, from + BATCH - 1)],
    );
  }
  await db('bank_accounts').insert({ teamId, name: 'Main', currency: 'EUR', balance: 250_000, manual: true });
  await settleSeed(db, ['transactions', 'transaction_daily_totals', 'exchange_rates']);
  return teamId;
}

const REPORTS: Record<string, (db: Db, teamId: string, q: ReportQuery) => Promise<unknown>> = {
  'profit and loss': profitAndLoss,
  revenue: (db, teamId, q) => revenue(db, teamId, { ...q, type: 'net' }),
  expenses,
  spending,
  'burn rate': burnRate,
  'cash flow': cashFlow,
  runway,
};

const PERIODS: ReportQuery[] = [
  { from: '2026-10-01', to: '2026-10-31' },
  { from: '2026-07-01', to: '2026-09-30' },
  { from: '2025-11-01', to: '2026-10-31' },
  { from: '2023-11-01', to: '2026-10-31' },
];

/** The work without daily totals: a year's income and expenses straight from the rows, converted per row. */
async function bareProfitAndLoss(db: Db, teamId: string): Promise<void> {
  await db.raw(
    `select to_char(t.date, 'YYYY-MM') as month,
            sum(t.amount / eur_rate(t.currency, t.date)) filter (where t.amount > 0) as income,
            -sum(t.amount / eur_rate(t.currency, t.date)) filter (where t.amount < 0) as expenses
       from transactions t
       left join transaction_categories c on c.team_id = t.team_id and c.slug = t.category_slug
      where t.team_id = ? and t.date between '2025-11-01' and '2026-10-31'
        and t.status in ('posted', 'completed') and not t.internal and c.excluded is not true
      group by 1`,
    [teamId],
  );
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function main() {
  const bench = await benchDatabase('finops_bench_reports');
  try {
    const teamId = await seededTeam(bench.db);
    const calls = Object.entries(REPORTS).flatMap(([name, run]) =>
      PERIODS.map((q, period) => ({ name, period, run: () => run(bench.db, teamId, q) })),
    );
    for (const c of calls) await c.run(); // warm the caches
    const times: number[] = [];
    const byReport = new Map<string, number[]>();
    const yearPnl: number[] = [];
    for (let round = 0; round < 210 / calls.length; round++) {
      for (const c of calls) {
        const took = await timed(c.run);
        times.push(took);
        byReport.set(c.name, [...(byReport.get(c.name) ?? []), took]);
        if (c.name === 'profit and loss' && c.period === 2) yearPnl.push(took);
      }
    }
    for (const [name, ts] of byReport) {
      ts.sort((a, b) => a - b);
      console.log(`${name.padEnd(16)} p50 ${ms(percentile(ts, 50))}  p99 ${ms(percentile(ts, 99))}`);
    }
    const bare: number[] = [];
    for (let i = 0; i < 5; i++) bare.push(await timed(() => bareProfitAndLoss(bench.db, teamId)));
    bare.sort((a, b) => a - b);
    times.sort((a, b) => a - b);
    const scale = `${TRANSACTIONS.toLocaleString()} transactions`;
    reportFigure({ name: `reports p50 (${scale})`, value: percentile(times, 50), unit: 'ms' });
    reportFigure({ name: `reports p99 (${scale})`, value: percentile(times, 99), unit: 'ms', budget: { on: 'value', atMost: 200 } });
    reportFigure({
      name: `one year's profit and loss (${scale})`,
      value: percentile(
        yearPnl.sort((a, b) => a - b),
        50,
      ),
      unit: 'ms',
      comparator: { name: 'summed from the transactions', value: percentile(bare, 50) },
    });
  } finally {
    await bench.close();
  }
}

runMain(main);
