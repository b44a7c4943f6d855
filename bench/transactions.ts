/**
 * GET /transactions under load: a team with 1,000,000 transactions, pages of 50,
 * authenticated with an API key. Prints p50/p99 latency at a steady 200 requests/s (open loop,
 * bench/lib/paced-load.ts) and the maximum throughput and the CPU per request, next to a bare `pg` +
 * `http` program doing the same work (the same key lookup, the same list SQL). Then the API with tracing
 * on (OTLP/HTTP to a stand-in collector the bench starts) against the same API with it off, in
 * alternating rounds: what tracing costs in throughput and CPU per request.
 *
 *   npx tsx bench/transactions.ts            (DATABASE_URL or an embedded PostgreSQL)
 *   ROWS=200000 DURATION=10 npx tsx bench/transactions.ts
 *   BENCH_DATABASE=finops_bench_mine …   (a database of your own on a server others bench on too: each run re-seeds a count it did not make)
 */
import type { Knex } from 'knex';
import path from 'node:path';
import { Team, User } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { sha256Hex } from '../shared/domain/crypto/tokens';
import { listTransactionsQuery } from '../shared/domain/transactions/schema';
import { listTransactionsSql } from '../shared/domain/transactions/service';
import { findApiKey } from '../shared/domain/auth/credentials';
import { spawnApi, spawnBare } from './lib/server-process';
import { freePort } from '../scripts/lib/ports';
import { issueBenchKey } from './lib/api-key';
import { benchDatabase, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms } from './lib/latency';
import { maxLoadSideBySide } from './lib/side-by-side';
import { load as run, requireEveryAnswerOk, waitForPort as waitFor } from './lib/load';
import { pacedLoad } from './lib/paced-load';
import { runMain } from './lib/run-main';
import { startOtlpSink } from '../test/fakes/otlp-sink';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const DURATION = Number(process.env.DURATION ?? 15);
/** Maximum load runs in this many alternating rounds per server, DURATION seconds in all. */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const RATE = 200;

async function main() {
  const bench = await benchDatabase(process.env.BENCH_DATABASE ?? 'finops_bench_transactions');
  const { db } = bench;
  let team = await Team.query(db).findOne({ name: 'bench-transactions' });
  if (!team) {
    ({ team } = await createUserWithTeam(db, { email: 'bench-transactions@example.com', teamName: 'bench-transactions' }));
  }
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const [{ n }] = await db('transactions').where({ teamId: team.id }).count<Array<{ n: string }>>('* as n');
  if (Number(n) !== ROWS) {
    console.log(`seeding ${ROWS.toLocaleString()} transactions (once; kept on DATABASE_URL's server)…`);
    await db('transactions').where({ teamId: team.id }).delete();
    await db.raw(
      `insert into transactions (team_id, date, name, amount, currency, provider_transaction_id, method)
       select ?, date '2026-11-01' - (g / 300), 'Merchant ' || (g % 5000), -((g % 100000) / 100.0), 'EUR', 'bench-' || g, 'card_purchase'
       from generate_series(1, ?) g`,
      [team.id, ROWS],
    );
    await settleSeed(db);
  }
  const key = await issueBenchKey(db, { teamId: team.id, userId: user.id, name: 'bench', scopes: ['transactions.read'] });

  // The bare program runs exactly the SQL our service builds for the first page, after the same key lookup
  // (which our API answers from its credential cache).
  const native = listTransactionsSql(db, team.id, listTransactionsQuery.parse({}));
  const keyLookup = (findApiKey(db, sha256Hex(key)) as unknown as Knex.QueryBuilder).toSQL().toNative();

  const apiPort = await freePort();
  const barePort = await freePort();
  const tracedPort = await freePort();
  // Counts what arrives without parsing it: the collector's work is not the API's.
  const collector = await startOtlpSink({ keep: false });
  const api = spawnApi({ databaseUrl: bench.url, port: apiPort });
  const traced = spawnApi({
    databaseUrl: bench.url,
    port: tracedPort,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, METRICS_PORT: '0' },
  });
  const bare = spawnBare(path.join(__dirname, 'bare-transactions-server.ts'), [
    String(barePort),
    bench.url,
    ...[native, keyLookup].map((sql) => Buffer.from(JSON.stringify(sql)).toString('base64')),
  ]);
  try {
    // Three processes start at once on a shared machine: give them longer than one alone needs.
    for (const port of [apiPort, barePort, tracedPort]) await waitFor(`127.0.0.1:${port}`, 120_000);
    const headers = { authorization: `Bearer ${key}` };
    const apiUrl = `http://127.0.0.1:${apiPort}/transactions?pageSize=50`;
    const bareUrl = `http://127.0.0.1:${barePort}/`;
    const tracedUrl = `http://127.0.0.1:${tracedPort}/transactions?pageSize=50`;

    await run({ url: apiUrl, headers, duration: 3, connections: 10 }); // warm-up: JIT, pools, caches
    await run({ url: bareUrl, headers, duration: 3, connections: 10 });
    await run({ url: tracedUrl, headers, duration: 3, connections: 10 });

    const fixed = await pacedLoad({
      url: apiUrl,
      rate: RATE,
      durationS: DURATION,
      request: () => ({ method: 'GET', path: '/transactions', headers }),
    });
    // The same paced load on the bare program: what this machine's tail is with nothing of ours in it.
    const bareFixed = await pacedLoad({
      url: bareUrl,
      rate: RATE,
      durationS: DURATION,
      request: () => ({ method: 'GET', path: '/', headers }),
    });
    const { ours: apiMax, bare: bareMax } = await maxLoadSideBySide(
      { process: api, options: { url: apiUrl, headers, connections: 20 } },
      { process: bare, options: { url: bareUrl, headers, connections: 20 } },
      { rounds: ROUNDS, roundS: DURATION / ROUNDS },
    );
    // By now the untraced API has served the paced load and its rounds against the bare program: the traced
    // one gets as long before they are compared (JIT, and its exporter's first batches, which load modules),
    // or the ratio would be of cold code against warm.
    await run({ url: tracedUrl, headers, duration: 2 * DURATION, connections: 20 });
    const batchesBefore = collector.batches;
    const { ours: tracedMax, bare: untracedMax } = await maxLoadSideBySide(
      { process: traced, options: { url: tracedUrl, headers, connections: 20 } },
      { process: api, options: { url: apiUrl, headers, connections: 20 } },
      { rounds: ROUNDS, roundS: DURATION / ROUNDS },
    );
    requireEveryAnswerOk({
      'API at 200 req/s': fixed,
      'bare at 200 req/s': bareFixed,
      API: apiMax,
      bare: bareMax,
      'API, tracing on': tracedMax,
      'API, tracing off': untracedMax,
    });
    if (collector.batches === batchesBefore)
      throw new Error('the traced API exported no spans: the comparison would be of two untraced APIs');
    const apiCpuPerRequest = apiMax.cpuPerRequestMs;
    const bareCpuPerRequest = bareMax.cpuPerRequestMs;

    console.log(`\nGET /transactions, team with ${ROWS.toLocaleString()} transactions, page of 50, API key auth`);
    console.log(
      `  at ${RATE} req/s for ${DURATION} s: p50 ${ms(fixed.p50)}, p99 ${ms(fixed.p99)}, max ${ms(fixed.max)}, non-2xx ${fixed.non2xx}, errors ${fixed.errors}  (target p99 < 25 ms)`,
    );
    console.log(`  bare pg+http at ${RATE} req/s: p50 ${ms(bareFixed.p50)}, p99 ${ms(bareFixed.p99)}, max ${ms(bareFixed.max)}`);
    console.log(
      `  max throughput (${ROUNDS} alternating rounds each): ${apiMax.perSecond.toFixed(0)} req/s (p99 ${ms(apiMax.p99)}), bare pg+http: ${bareMax.perSecond.toFixed(0)} req/s (p99 ${ms(bareMax.p99)})`,
    );
    console.log(`  ratio to bare: ${(apiMax.perSecond / bareMax.perSecond).toFixed(2)}  (target ≥ 0.85)`);
    console.log(
      `  CPU per request: ${apiCpuPerRequest.toFixed(3)} ms, bare ${bareCpuPerRequest.toFixed(3)} ms, ratio ${(apiCpuPerRequest / bareCpuPerRequest).toFixed(2)}  (target ≤ 1.15; steadier than req/s on a busy machine)`,
    );
    console.log(
      `  tracing on (OTLP/HTTP, ${collector.batches - batchesBefore} batches exported) vs off, ${ROUNDS} alternating rounds each: ${tracedMax.perSecond.toFixed(0)} vs ${untracedMax.perSecond.toFixed(0)} req/s, ratio ${(tracedMax.perSecond / untracedMax.perSecond).toFixed(3)}  (target ≥ 0.95); CPU per request ${tracedMax.cpuPerRequestMs.toFixed(3)} vs ${untracedMax.cpuPerRequestMs.toFixed(3)} ms`,
    );
    reportFigure({
      name: `GET /transactions p99 at ${RATE} req/s`,
      value: fixed.p99,
      unit: 'ms',
      comparator: { name: 'bare pg+http', value: bareFixed.p99 },
      budget: { on: 'value', atMost: 25 },
    });
    reportFigure({
      name: 'GET /transactions max throughput',
      value: apiMax.perSecond,
      unit: 'req/s',
      comparator: { name: 'bare pg+http', value: bareMax.perSecond },
      budget: { on: 'ratio', atLeast: 0.85 },
    });
    reportFigure({
      name: 'GET /transactions CPU per request',
      value: apiCpuPerRequest,
      unit: 'ms',
      comparator: { name: 'bare pg+http', value: bareCpuPerRequest },
      budget: { on: 'ratio', atMost: 1.15 },
    });
    reportFigure({
      name: 'GET /transactions max throughput, tracing on',
      value: tracedMax.perSecond,
      unit: 'req/s',
      comparator: { name: 'tracing off', value: untracedMax.perSecond },
      budget: { on: 'ratio', atLeast: 0.95 },
    });
  } finally {
    api.kill('SIGTERM');
    bare.kill('SIGTERM');
    // The traced API sends what it still holds as it stops: the collector waits for it.
    const stopped = traced.exitCode === null ? new Promise((resolve) => traced.once('exit', resolve)) : Promise.resolve();
    traced.kill('SIGTERM');
    await stopped;
    await collector.close();
    await db('api_keys')
      .where({ keyHash: sha256Hex(key) })
      .delete();
    await bench.close();
  }
}

runMain(main);
