/**
 * Signed webhook acknowledgement (DESIGN §6): bank-b webhooks, each with its own event id, through
 * the full pipeline (raw body, HMAC check, zod, event recorded in webhook_events). Prints p50/p99
 * at a fixed 200 requests/s and the maximum throughput.
 *
 *   npx tsx bench/webhooks.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import { createHmac, randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { spawnApi } from './lib/server-process';
import { freePort } from '../scripts/lib/ports';
import { benchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms } from './lib/latency';
import { load as run, waitForPort } from './lib/load';
import { withCpuOf } from './lib/process-cpu';
import { pacedLoad } from './lib/paced-load';
import { runMain } from './lib/run-main';

const DURATION = Number(process.env.DURATION ?? 15);
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
  const bench = await benchDatabase('finops_bench_webhooks');
  const port = await freePort();
  const api = spawnApi({ databaseUrl: bench.url, port: port, env: { BANK_B_WEBHOOK_SECRETS: SECRET } });
  try {
    await waitForPort(`127.0.0.1:${port}`);
    const url = `http://127.0.0.1:${port}/webhook/bank-b`;
    const opts = (extra: Partial<autocannon.Options>): autocannon.Options => ({
      url,
      method: 'POST',
      duration: DURATION,
      connections: 20,
      requests: [{ setupRequest: (req) => ({ ...req, ...signed() }) }],
      ...extra,
    });
    await run(opts({ duration: 3 })); // warm-up
    const fixed = await pacedLoad({
      url,
      rate: 200,
      durationS: DURATION,
      request: () => ({ method: 'POST', path: '/webhook/bank-b', ...signed() }),
    });
    const { result: max, cpuMs } = await withCpuOf(api, () => run(opts({})));
    const cpuPerRequest = cpuMs / max.requests.total;
    const recorded = await bench.db('webhook_events').where({ provider: 'bank-b' }).count('* as n').first();
    console.log(`\nSigned bank-b webhooks (HMAC check, zod, recorded in webhook_events; ${recorded?.n ?? 0} events recorded in all)`);
    console.log(
      `  at 200 req/s for ${DURATION} s: p50 ${ms(fixed.p50)}, p99 ${ms(fixed.p99)}, max ${ms(fixed.max)}, non-2xx ${fixed.non2xx}, errors ${fixed.errors}  (target p99 < 20 ms)`,
    );
    console.log(`  max throughput: ${max.requests.average.toFixed(0)} req/s (p99 ${ms(max.latency.p99)})  (target ≥ 2,000 req/s)`);
    console.log(`  API CPU per request: ${cpuPerRequest.toFixed(2)} ms (steadier than req/s on a busy machine)`);
    reportFigure({ name: 'signed webhook p99 at 200 req/s', value: fixed.p99, unit: 'ms', budget: { on: 'value', atMost: 20 } });
    reportFigure({
      name: 'signed webhook max throughput',
      value: max.requests.average,
      unit: 'req/s',
      budget: { on: 'value', atLeast: 2000 },
    });
    reportFigure({ name: 'signed webhook API CPU per request', value: cpuPerRequest, unit: 'ms' });
  } finally {
    api.kill('SIGTERM');
    await bench.db('webhook_events').where({ provider: 'bank-b' }).delete();
    await bench.close();
  }
}

runMain(main);
