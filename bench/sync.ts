/**
 * SyncConnection end to end: 10,000 new provider transactions, from the sync request to
 * the finished workflow, on a real Temporal dev server and worker against the bank-a fake.
 *
 *   npx tsx bench/sync.ts            (DATABASE_URL or an embedded PostgreSQL)
 *   PROVIDER_MS=50 npx tsx bench/sync.ts   (each page answered after 50 ms, as a provider over the internet)
 */
import { NativeConnection } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivityDeps } from '../activities';
import { loadConfig } from '../shared/config';
import { BankConnection, Transaction } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { encrypt, keyringOf } from '../shared/domain/crypto/encryption';
import { createTemporalGateway } from '../shared/temporal/client';
import { requestSync } from '../shared/temporal/sync-connection/calls';
import type { SyncConnectionWorkflow } from '../shared/temporal/sync-connection/contract';
import { localDevServer } from '../scripts/lib/temporal-cli';
import { createWorker } from '../worker/create-worker';
import { startBankAFake } from '../test/fakes/bank-a';
import { benchDatabase, forgetTeam } from './lib/database';
import { reportFigure } from './lib/figures';
import { runMain } from './lib/run-main';

const N = Number(process.env.TRANSACTIONS ?? 100_000);
/** The fake answers on loopback at once; a real provider takes tens of milliseconds a page. */
const PROVIDER_MS = Number(process.env.PROVIDER_MS ?? 0);

async function main() {
  const bench = await benchDatabase('finops_bench_sync');
  const env = await TestWorkflowEnvironment.createLocal({
    server: localDevServer(),
  });
  const bankA = await startBankAFake();
  if (PROVIDER_MS) bankA.slowSync(PROVIDER_MS);
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: env.address,
    BANK_A_API_URL: bankA.url,
    TEMPORAL_TASK_QUEUE: 'bench-sync',
  });
  const connection = await NativeConnection.connect({ address: env.address });
  const worker = await createWorker({
    connection,
    namespace: 'default',
    taskQueue: 'bench-sync',
    deps: createActivityDeps(config, bench.db),
  });
  const temporal = createTemporalGateway({ address: env.address, namespace: 'default', taskQueue: 'bench-sync' });
  try {
    await worker.runUntil(async () => {
      const { team } = await createUserWithTeam(bench.db, { email: `bench-${Date.now()}@example.com`, teamName: 'bench-sync' });
      const item = bankA.addItem();
      bankA.addTransactions(item.itemId, N);
      const conn = await BankConnection.query(bench.db).insert({
        teamId: team.id,
        provider: 'bank-a',
        referenceId: item.itemId,
        accessTokenEncrypted: encrypt(item.accessToken, keyringOf(config)),
      });
      const started = performance.now();
      const workflowId = await requestSync(temporal, { connectionId: conn.id, teamId: team.id, manualSync: true }, conn);
      const result = await (await temporal.client()).workflow.getHandle<SyncConnectionWorkflow>(workflowId).result();
      const seconds = (performance.now() - started) / 1000;
      const stored = await Transaction.query(bench.db).where({ teamId: team.id }).resultSize();
      console.log(
        `\nSyncConnection: ${result.added.toLocaleString()} new transactions (${stored} stored) in ${seconds.toFixed(2)} s, ${(result.added / seconds).toFixed(0)} transactions/s  (target: 100,000 in under 15 s)`,
      );
      reportFigure({
        name: `SyncConnection, ${N.toLocaleString()} new transactions${PROVIDER_MS ? `, provider answering in ${PROVIDER_MS} ms` : ''}`,
        value: seconds,
        unit: 's',
        budget: { on: 'value', atMost: (15 * N) / 100_000 },
      });
      await forgetTeam(bench.db, team.id);
    });
  } finally {
    await temporal.close();
    await connection.close();
    await bankA.close();
    await env.teardown();
    await bench.close();
  }
}

runMain(main);
