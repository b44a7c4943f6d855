/**
 * The API's memory under a long mixed load: 5 minutes at 200 requests/s of transaction
 * lists (first pages, filtered pages), single reads and signed bank webhooks, with a text search in
 * the list or across resources one request in twenty (a search box is typed in less often than a
 * list is paged, and a rare word scans a team's rows: at a third of the mix those searches alone
 * would need more than this machine's two cores), while the process's resident set size is sampled
 * from /proc. Prints the RSS
 * curve, its maximum (budget 250 MB) and how much it grew over the last 3 minutes (a leak shows there;
 * budget 10 MB, a little more than what a garbage collection moves).
 *
 *   npx tsx bench/memory.ts
 *   DURATION=60 npx tsx bench/memory.ts        (a shorter look; the growth window is then the last 60%)
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Team, User } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { freePort } from '../scripts/lib/ports';
import { issueBenchKey } from './lib/api-key';
import { benchDatabase, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { waitForPort } from './lib/load';
import { pacedLoad, type PacedRequest } from './lib/paced-load';
import { spawnApi } from './lib/server-process';
import { runMain } from './lib/run-main';

const DURATION = Number(process.env.DURATION ?? 300);
const RATE = 200;
const ROWS = 100_000;
const SAMPLE_EVERY_MS = 5_000;
const SECRET = 'bench-memory-bank-b-secret';

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line.split(/\s+/)[1]) / 1024;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function seededTeam(db: Awaited<ReturnType<typeof benchDatabase>>['db']) {
  let team = await Team.query(db).findOne({ name: 'bench-memory' });
  if (!team) ({ team } = await createUserWithTeam(db, { email: 'bench-memory@example.com', teamName: 'bench-memory' }));
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const [{ n }] = await db('transactions').where({ teamId: team.id }).count<Array<{ n: string }>>('* as n');
  if (Number(n) !== ROWS) {
    console.log(`seeding ${ROWS.toLocaleString()} transactions (once)…`);
    await db('transactions').where({ teamId: team.id }).delete();
    await db.raw(
      `insert into transactions (team_id, date, name, description, amount, currency, provider_transaction_id, method)
       select ?, date '2026-11-01' - (g / 100), 'Merchant ' || (g % 5000), 'card payment ' || (g % 97), -((g % 100000) / 100.0), 'EUR',
              'bench-memory-' || g, 'card_purchase'
         from generate_series(1, ?) g`,
      [team.id, ROWS],
    );
    await settleSeed(db);
  }
  const key = await issueBenchKey(db, {
    teamId: team.id,
    userId: user.id,
    name: 'bench-memory',
    scopes: ['transactions.read', 'search.read'],
  });
  const ids = (await db('transactions').where({ teamId: team.id }).orderBy('date', 'desc').limit(500).pluck('id')) as string[];
  return { key, ids };
}

async function main() {
  const bench = await benchDatabase('finops_bench_memory');
  const { key, ids } = await seededTeam(bench.db);
  const port = await freePort();
  const api = spawnApi({ databaseUrl: bench.url, port: port, env: { BANK_B_WEBHOOK_SECRETS: SECRET } });
  const pid = api.pid;
  if (pid === undefined) throw new Error('the API did not start');
  try {
    await waitForPort(`127.0.0.1:${port}`);
    const auth = { authorization: `Bearer ${key}` };
    let n = 0;
    const reads = [
      () => '/transactions',
      () => '/transactions?pageSize=100&type=expense&currency=EUR',
      () => `/transactions?from=2025-0${1 + (n % 9)}-01&to=2025-0${1 + (n % 9)}-28&amountMin=-500&amountMax=-10`,
      () => `/transactions/${ids[n % ids.length]}`,
    ];
    const searches = [
      () => `/transactions?q=merchant%20${n % 5000}`,
      () => `/search?q=${['merchant', 'card payment', '49.99', 'nothing-like-this'][n % 4]}`,
    ];
    const next = (i: number): PacedRequest => {
      n = i + 1;
      if (n % 20 === 0) return { method: 'GET', path: searches[(n / 20) % 2](), headers: auth };
      if (n % 7 === 0) {
        const body = JSON.stringify({
          id: `wh_${randomUUID()}`,
          type: 'transactions.processed',
          timestamp: new Date().toISOString(),
          payload: { enrollment_id: 'enr_bench_memory' },
        });
        const t = Math.floor(Date.now() / 1000);
        const signature = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
        return {
          method: 'POST',
          path: '/webhook/bank-b',
          body,
          headers: { 'content-type': 'application/json', 'bank-b-signature': signature },
        };
      }
      return { method: 'GET', path: reads[n % reads.length](), headers: auth };
    };

    const samples: { s: number; mb: number }[] = [];
    const started = Date.now();
    const sample = () => samples.push({ s: Math.round((Date.now() - started) / 1000), mb: rssMb(pid) });
    sample();
    const timer = setInterval(sample, SAMPLE_EVERY_MS);
    const result = await pacedLoad({ url: `http://127.0.0.1:${port}`, rate: RATE, durationS: DURATION, request: next });
    clearInterval(timer);
    sample();
    const tookS = (Date.now() - started) / 1000;

    console.log(
      `\nAPI RSS through ${DURATION} s of mixed load at ${RATE} req/s (${result.total} requests, p99 ${result.p99.toFixed(1)} ms, non-2xx ${result.non2xx}, errors ${result.errors})`,
    );
    for (const { s, mb } of samples.filter((_, i) => i % 6 === 0 || i === samples.length - 1)) {
      console.log(`  ${String(s).padStart(4)} s  ${mb.toFixed(0).padStart(4)} MB  ${'█'.repeat(Math.round(mb / 5))}`);
    }
    const max = Math.max(...samples.map((x) => x.mb));
    // Growth over the last 60% of the run (the last 3 minutes of 5): the last 30 s against the 30 s where that window starts.
    const windowStart = DURATION * 0.4;
    const first = samples.filter((x) => x.s >= windowStart && x.s < windowStart + 30).map((x) => x.mb);
    const last = samples.filter((x) => x.s > DURATION - 30).map((x) => x.mb);
    const growth = mean(last) - mean(first);
    console.log(
      `  max ${max.toFixed(0)} MB (budget 250 MB); growth over the last ${Math.round(DURATION * 0.6)} s ${growth.toFixed(1)} MB (budget 10 MB)`,
    );
    // Memory grows with requests waiting, not only with leaks: say so when the load was not kept up with.
    if (tookS > DURATION * 1.05)
      console.log(`  the API fell behind: ${DURATION} s of load took ${tookS.toFixed(0)} s, so the curve includes a queue of requests`);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
    reportFigure({ name: `mixed load p99 at ${RATE} req/s (what the RSS was measured under)`, value: result.p99, unit: 'ms' });
    reportFigure({
      name: `API RSS max, ${DURATION} s mixed load at ${RATE} req/s`,
      value: max,
      unit: 'MB',
      budget: { on: 'value', atMost: 250 },
    });
    reportFigure({
      name: `API RSS growth over the last ${Math.round(DURATION * 0.6)} s`,
      value: growth,
      unit: 'MB',
      budget: { on: 'value', atMost: 10 },
    });
  } finally {
    api.kill('SIGTERM');
    await bench.db('webhook_events').where({ provider: 'bank-b' }).delete();
    await bench.db('api_keys').where({ name: 'bench-memory' }).delete();
    await bench.close();
  }
}

runMain(main);
