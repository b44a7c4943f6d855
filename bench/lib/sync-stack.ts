import { NativeConnection } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivityDeps } from '../../activities';
import { loadConfig, type Config } from '../../shared/config';
import { BankConnection } from '../../shared/db/models';
import { encrypt, keyringOf } from '../../shared/domain/crypto/encryption';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { requestSync } from '../../shared/temporal/sync-connection/calls';
import type { SyncConnectionResult, SyncConnectionWorkflow } from '../../shared/temporal/sync-connection/contract';
import { localDevServer } from '../../scripts/lib/temporal-cli';
import { createWorker } from '../../worker/create-worker';
import { startBankAFake, type BankAFake } from '../../test/fakes/bank-a';
import type { BenchDatabase } from './database';

export interface SyncStack {
  config: Config;
  bankA: BankAFake;
  temporal: TemporalGateway;
  /** Runs `fn` while the worker (every workflow and activity, as in production) polls. */
  whileWorking<T>(fn: () => Promise<T>): Promise<T>;
  /** A bank-a item with `n` new transactions, connected to the team: what `sync` reads. */
  connectItem(teamId: string, n: number, merchantOf?: (i: number) => string): Promise<BankConnection>;
  /** One SyncConnection of the connection, from the request to the finished workflow. */
  sync(conn: BankConnection): Promise<{ result: SyncConnectionResult; seconds: number }>;
  close(): Promise<void>;
}

/**
 * What a sync bench runs on: a Temporal dev server, the real worker with the real activities on the
 * bench's database, and the bank-a fake as the provider.
 */
export async function startSyncStack(bench: BenchDatabase, taskQueue: string): Promise<SyncStack> {
  const env = await TestWorkflowEnvironment.createLocal({ server: localDevServer() });
  const bankA = await startBankAFake();
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: env.address,
    BANK_A_API_URL: bankA.url,
    TEMPORAL_TASK_QUEUE: taskQueue,
  });
  const connection = await NativeConnection.connect({ address: env.address });
  const worker = await createWorker({ connection, namespace: 'default', taskQueue, deps: createActivityDeps(config, bench.db) });
  const temporal = createTemporalGateway({ address: env.address, namespace: 'default', taskQueue });
  return {
    config,
    bankA,
    temporal,
    whileWorking: (fn) => worker.runUntil(fn),
    async connectItem(teamId, n, merchantOf) {
      const item = bankA.addItem();
      bankA.addTransactions(item.itemId, n, 0, merchantOf);
      return BankConnection.query(bench.db).insert({
        teamId,
        provider: 'bank-a',
        referenceId: item.itemId,
        accessTokenEncrypted: encrypt(item.accessToken, keyringOf(config)),
      });
    },
    async sync(conn) {
      const started = performance.now();
      const workflowId = await requestSync(temporal, { connectionId: conn.id, teamId: conn.teamId, manualSync: true }, conn);
      const result = await (await temporal.client()).workflow.getHandle<SyncConnectionWorkflow>(workflowId).result();
      return { result, seconds: (performance.now() - started) / 1000 };
    },
    async close() {
      await temporal.close();
      await connection.close();
      await bankA.close();
      await env.teardown();
    },
  };
}
