/**
 * Flat as data grows: GET /transactions for teams of 10,000, 100,000, 1,000,000 and
 * 10,000,000 transactions, six shapes each: the first page, a filtered page (category, date range
 * and amount range), a text search (`q=`), the first page in two other orders (`sort=`, each read in
 * its own index) and page 200 reached by cursor. Prints the p99 curve at a fixed rate and, per shape,
 * the ratio of the largest team's p99 to the smallest's (budget ≤ 1.5); each p99 is the median of
 * ROUNDS (3) runs, its spread printed beside it.
 * Teams are seeded once per size and kept on DATABASE_URL's server: the first run seeds 11.1
 * million rows (a long first run, and gigabytes of disk with their indexes); SIZES= measures fewer.
 *
 *   npx tsx bench/scaling.ts
 *   SIZES=10000,1000000 RATE=100 DURATION=10 ROUNDS=1 npx tsx bench/scaling.ts
 */
import { Team, User } from '../shared/db/models';
import { newApiKey, sha256Hex } from '../shared/domain/crypto/tokens';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { spawnApi } from './lib/server-process';
import { pacedLoad } from './lib/paced-load';
import { freePort } from '../scripts/lib/ports';
import type { Db } from '../shared/db/knex';
import { benchDatabase, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { median, ms } from './lib/latency';
import { load, waitForPort } from './lib/load';
import { runMain } from './lib/run-main';

const SIZES = (process.env.SIZES ?? '10000,100000,1000000,10000000').split(',').map(Number);
const RATE = Number(process.env.RATE ?? 100);
const DURATION = Number(process.env.DURATION ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CATEGORIES = ['travel', 'software', 'office-supplies', 'meals', 'rent'];

const SHAPES: Record<string, string> = {
  'first page': '/transactions?pageSize=50',
  filtered: '/transactions?pageSize=50&categories=software&from=2025-01-01&to=2026-06-30&amountMin=-500&amountMax=-10',
  'text search': '/transactions?pageSize=50&q=merchant%20417',
  'by amount': '/transactions?pageSize=50&sort=-amount',
  'by name': '/transactions?pageSize=50&sort=name',
  'page 200': '', // found by following cursors
};

async function seededTeam(db: Db, rows: number): Promise<{ teamId: string; userId: string }> {
  const name = `bench-scaling-v2-${rows}`;
  let team = await Team.query(db).findOne({ name });
  if (!team) ({ team } = await createUserWithTeam(db, { email: `${name}@example.com`, teamName: name }));
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const [{ n }] = await db('transactions').where({ teamId: team.id }).count<Array<{ n: string }>>('* as n');
  if (Number(n) !== rows) {
    console.log(`seeding ${rows.toLocaleString()} transactions for ${name} (once)…`);
    await db('transactions').where({ teamId: team.id }).delete();
    for (const slug of CATEGORIES) {
      await db('transaction_categories')
        .insert({ teamId: team.id, slug, name: slug })
        .onConflict(['teamId', 'slug'])
        .ignore()
        .catch(() => undefined);
    }
    // In slices, so 10,000,000 rows do not become one transaction of several GB. The merchant, category
    // and amount come from a hash of the row number, not from the number itself as the date does:
    // taken from g as well (v1), every row of a day had the same category and one merchant in 5,000
    // fell on 33 days of 1,500, so a filter skipped whole days (walking many rows for a page) in a
    // way no team's spending does.
    for (let from = 1; from <= rows; from += 1_000_000) {
      const to = Math.min(rows, from + 999_999);
      await db.raw(
        `insert into transactions (team_id, date, name, amount, currency, provider_transaction_id, method, category_slug)
         select ?, date '2026-11-01' - (g % 1500), 'Merchant ' || (h % 5000), -(((h / 5000) % 100000) / 100.0), 'EUR', 'bench-' || g,
                'card_purchase', (array['travel','software','office-supplies','meals','rent'])[1 + k % 5]
         from generate_series(?::int, ?::int) g, lateral (select hashint4(g)::bigint + 2147483648 as h, hashint4(-g)::bigint + 2147483648 as k) r`,
        [team.id, from, to],
      );
    }
    await settleSeed(db);
  }
  return { teamId: team.id, userId: user.id };
}

async function main() {
  const bench = await benchDatabase('finops_bench_scaling');
  const { db } = bench;
  const teams = [];
  for (const size of SIZES) teams.push({ size, ...(await seededTeam(db, size)) });
  const keys = teams.map((t) => ({ ...t, key: newApiKey() }));
  await db('api_keys').insert(
    keys.map((t) => ({
      teamId: t.teamId,
      userId: t.userId,
      name: 'bench',
      keyHash: sha256Hex(t.key),
      keyHint: t.key.slice(-4),
      scopes: ['transactions.read'],
    })),
  );

  const port = await freePort();
  const api = spawnApi({ databaseUrl: bench.url, port: port });
  const base = `http://127.0.0.1:${port}`;
  /** p99 of each round, by shape and team size. */
  const rounds: Record<string, Record<number, number[]>> = {};
  try {
    await waitForPort(`127.0.0.1:${port}`);
    const paths: Record<number, Record<string, string>> = {};
    for (const t of keys) {
      const headers = { authorization: `Bearer ${t.key}` };
      // Page 200, reached the way a client does: 199 cursors followed.
      let url = SHAPES['first page'];
      for (let page = 1; page < 200; page++) {
        const res = await fetch(`${base}${url}`, { headers });
        const body = (await res.json()) as { meta: { cursor: string | null } };
        if (!body.meta.cursor) break;
        url = `/transactions?pageSize=50&cursor=${encodeURIComponent(body.meta.cursor)}`;
      }
      paths[t.size] = { ...SHAPES, 'page 200': url };
      // Every shape warmed on every team, so the first team measured does not carry the process's
      // warm-up (it made the smallest team the slowest and the ratios look better than they are).
      for (const path of Object.values(paths[t.size])) await load({ url: `${base}${path}`, headers, duration: 1, connections: 4 });
    }
    // A p99 of one run is its few slowest requests, and one pause of the machine's can move it far.
    // So each is the median of ROUNDS runs, and a round measures every size of a shape back to back:
    // a noisy spell falls on the sizes compared, not on one of them.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const shape of Object.keys(SHAPES)) {
        for (const t of keys) {
          const headers = { authorization: `Bearer ${t.key}` };
          const path = paths[t.size][shape];
          const r = await pacedLoad({ url: base, rate: RATE, durationS: DURATION, request: () => ({ method: 'GET', path, headers }) });
          if (r.non2xx || r.errors) throw new Error(`${shape} at ${t.size}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          ((rounds[shape] ??= {})[t.size] ??= []).push(r.p99);
          console.log(
            `  round ${round}  ${t.size.toLocaleString().padStart(12)} rows  ${shape.padEnd(12)} p50 ${ms(r.p50)}  p99 ${ms(r.p99)}`,
          );
        }
      }
    }
  } finally {
    api.kill('SIGTERM');
    await db('api_keys')
      .whereIn(
        'keyHash',
        keys.map((k) => sha256Hex(k.key)),
      )
      .delete();
    await bench.close();
  }

  const smallest = Math.min(...SIZES);
  const largest = Math.max(...SIZES);
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
  console.log(`\np99 at ${RATE} req/s by team size, median of ${ROUNDS} rounds (spread)`);
  console.log(['shape', ...SIZES.map((s) => s.toLocaleString()), `${largest.toLocaleString()} ÷ ${smallest.toLocaleString()}`].join(' | '));
  for (const [shape, bySize] of Object.entries(rounds)) {
    const p99 = (size: number) => median(bySize[size]);
    const ratio = p99(largest) / p99(smallest);
    console.log([shape, ...SIZES.map((s) => `${ms(p99(s))} (${spread(bySize[s])})`), ratio.toFixed(2)].join(' | '));
    reportFigure({
      name: `GET /transactions ${shape}: p99 at ${largest.toLocaleString()} rows vs ${smallest.toLocaleString()}`,
      value: p99(largest),
      unit: 'ms',
      comparator: { name: `p99 at ${smallest.toLocaleString()} rows`, value: p99(smallest) },
      budget: { on: 'ratio', atMost: 1.5 },
    });
  }
}

runMain(main);
