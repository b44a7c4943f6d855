/**
 * Signed webhook acknowledgement: bank-b webhooks, each with its own event id, through
 * the full pipeline (raw body, HMAC check, zod, event recorded in webhook_events). Prints p50/p99
 * at a fixed 200 requests/s and the maximum throughput, each beside a bare `pg` + `http` program
 * doing the same work (bench/bare-webhook-server.ts) in the same run.
 *
 *   npx tsx bench/webhooks.ts            (DATABASE_URL or an embedded PostgreSQL)
 *   BENCH_DATABASE=finops_bench_webhooks_mine …   (a database of your own on a server others bench on too: a run deletes the bank-b events it finds)
 */
import { createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import type autocannon from 'autocannon';
import { spawnApi, spawnBare } from './lib/server-process';
import { freePort } from '../scripts/lib/ports';
import { benchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms } from './lib/latency';
import { load as run, requireEveryAnswerOk, waitForPort } from './lib/load';
import { maxLoadSideBySide } from './lib/side-by-side';
import { pacedLoad } from './lib/paced-load';
import { runMain } from './lib/run-main';

const DURATION = Number(process.env.DURATION ?? 15);
/** Maximum load runs in this many alternating rounds per server, DURATION seconds in all. */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECRET = 'bench-bank-b-secret';

function signed() {
  const body = JSON.stringify({
    id: `wh_${randomUUID()}`,
    type: 'transactions.processed',
    timestamp: new Date().toISOString(),
    payload: { enrollment_id: 'enr_bench_unknown' },
  });
  const t = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'bank-b-signature': `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`,
    },
  };
}

async function main() {
  const bench = await benchDatabase(process.env.BENCH_DATABASE ?? 'finops_bench_webhooks');
  const [port, barePort] = [await freePort(), await freePort()];
  const api = spawnApi({ databaseUrl: bench.url, port: port, env: { BANK_B_WEBHOOK_SECRETS: SECRET } });
  const bare = spawnBare(path.join(__dirname, 'bare-webhook-server.ts'), [String(barePort), bench.url, SECRET]);
  try {
    await waitForPort(`127.0.0.1:${port}`);
    await waitForPort(`127.0.0.1:${barePort}`);
    const url = `http://127.0.0.1:${port}/webhook/bank-b`;
    const bareUrl = `http://127.0.0.1:${barePort}/webhook/bank-b`;
    const opts = (target: string, extra: Partial<autocannon.Options>): autocannon.Options => ({
      url: target,
      method: 'POST',
      duration: DURATION,
      connections: 20,
      requests: [{ setupRequest: (req) => ({ ...req, ...signed() }) }],
      ...extra,
    });
    await run(opts(url, { duration: 3 })); // warm-up: JIT, pools, prepared statements
    await run(opts(bareUrl, { duration: 3 }));
    const paced = (target: string) =>
      pacedLoad({ url: target, rate: 200, durationS: DURATION, request: () => ({ method: 'POST', path: '/webhook/bank-b', ...signed() }) });
    const fixed = await paced(url);
    // The same paced load on the bare program: what this machine's tail is with nothing of ours in it.
    const bareFixed = await paced(bareUrl);
    const { ours: max, bare: bareMax } = await maxLoadSideBySide(
      { process: api, options: opts(url, {}) },
      { process: bare, options: opts(bareUrl, {}) },
      { rounds: ROUNDS, roundS: DURATION / ROUNDS },
    );
    requireEveryAnswerOk({ 'API at 200 req/s': fixed, 'bare at 200 req/s': bareFixed, API: max, bare: bareMax });
    const cpuPerRequest = max.cpuPerRequestMs;
    const bareCpuPerRequest = bareMax.cpuPerRequestMs;
    const recorded = await bench.db('webhook_events').where({ provider: 'bank-b' }).count('* as n').first();
    console.log(`\nSigned bank-b webhooks (HMAC check, zod, recorded in webhook_events; ${recorded?.n ?? 0} events recorded in all)`);
    console.log(`  at 200 req/s for ${DURATION} s: p50 ${ms(fixed.p50)}, p99 ${ms(fixed.p99)}, max ${ms(fixed.max)}  (target p99 < 20 ms)`);
    console.log(`  bare pg+http at 200 req/s: p50 ${ms(bareFixed.p50)}, p99 ${ms(bareFixed.p99)}, max ${ms(bareFixed.max)}`);
    console.log(
      `  max throughput (${ROUNDS} alternating rounds each): ${max.perSecond.toFixed(0)} req/s (p99 ${ms(max.p99)}), bare pg+http: ${bareMax.perSecond.toFixed(0)} req/s  (target ≥ 2,000 req/s)`,
    );
    console.log(
      `  API CPU per request: ${cpuPerRequest.toFixed(3)} ms, bare ${bareCpuPerRequest.toFixed(3)} ms, ratio ${(cpuPerRequest / bareCpuPerRequest).toFixed(2)}  (target ≤ 1.15; steadier than req/s on a busy machine)`,
    );
    const comparator = (value: number) => ({ name: 'bare pg+http', value });
    reportFigure({
      name: 'signed webhook p99 at 200 req/s',
      value: fixed.p99,
      unit: 'ms',
      comparator: comparator(bareFixed.p99),
      budget: { on: 'value', atMost: 20 },
    });
    reportFigure({
      name: 'signed webhook max throughput',
      value: max.perSecond,
      unit: 'req/s',
      comparator: comparator(bareMax.perSecond),
      budget: { on: 'value', atLeast: 2000 },
    });
    reportFigure({
      name: 'signed webhook API CPU per request',
      value: cpuPerRequest,
      unit: 'ms',
      comparator: comparator(bareCpuPerRequest),
      budget: { on: 'ratio', atMost: 1.15 },
    });
  } finally {
    api.kill('SIGTERM');
    bare.kill('SIGTERM');
    await bench.db('webhook_events').where({ provider: 'bank-b' }).delete();
    await bench.close();
  }
}

runMain(main);
