/**
 * The fault scenarios at full size (test/e2e/faults.test.ts and scale-out.test.ts run them small):
 * for each, what was accepted, processed, lost and done twice.
 *
 *   npm run bench:chaos          (DATABASE_URL or an embedded PostgreSQL; its own Temporal dev server)
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { localDevServer } from '../scripts/lib/temporal-cli';
import {
  apiKilledDuringBurst,
  postgresRestartDuringReceipts,
  postgresRestartDuringSync,
  temporalOutage,
  webhookStormAcrossProcesses,
  type ScenarioResult,
} from '../test/support/chaos/scenarios';
import { benchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { runMain } from './lib/run-main';

const SIZE = {
  storm: Number(process.env.CHAOS_STORM ?? 2000),
  kill: Number(process.env.CHAOS_KILL ?? 2000),
  outageEvents: Number(process.env.CHAOS_OUTAGE_EVENTS ?? 1000),
  outageSeconds: Number(process.env.CHAOS_OUTAGE_SECONDS ?? 30),
  sync: Number(process.env.CHAOS_SYNC ?? 20_000),
  receipts: Number(process.env.CHAOS_RECEIPTS ?? 60),
};

async function main() {
  const bench = await benchDatabase('finops_bench_chaos');
  const temporal = await TestWorkflowEnvironment.createLocal({
    server: localDevServer(),
  });
  const services = { databaseUrl: bench.url, temporalAddress: temporal.address };
  const results: ScenarioResult[] = [];
  const run = async (scenario: () => Promise<ScenarioResult>) => {
    const result = await scenario();
    results.push(result);
    console.log(
      `  ${result.scenario}: ${result.accepted} accepted, ${result.processed} processed, ${result.lost} lost, ${result.duplicated} duplicated (${result.seconds.toFixed(1)} s)`,
    );
  };
  try {
    await run(() => webhookStormAcrossProcesses(services, SIZE.storm));
    await run(() => apiKilledDuringBurst(services, SIZE.kill));
    await run(() => temporalOutage(services, SIZE.outageEvents, SIZE.outageSeconds));
    await run(() => postgresRestartDuringSync(services, SIZE.sync));
    await run(() => postgresRestartDuringReceipts(services, SIZE.receipts));
  } finally {
    await temporal.teardown();
    await bench.close();
  }
  console.log('\nscenario | accepted | processed | lost | duplicated | seconds | notes');
  console.log('---|---|---|---|---|---|---');
  for (const r of results)
    console.log(
      `${r.scenario} | ${r.accepted} | ${r.processed} | ${r.lost} | ${r.duplicated} | ${r.seconds.toFixed(1)} | ${r.notes ?? ''}`,
    );
  for (const r of results)
    reportFigure({
      name: `chaos ${r.scenario}: lost + duplicated of ${r.accepted}`,
      value: r.lost + r.duplicated,
      unit: 'events',
      budget: { on: 'value', atMost: 0 },
    });
  if (results.some((r) => r.lost || r.duplicated)) process.exitCode = 1;
}

runMain(main);
