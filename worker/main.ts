import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig, type Config } from '../shared/config';
import { createDb } from '../shared/db/knex';
import { createLogger } from '../shared/logger';
import { closeActivityDeps, createActivityDeps } from '../activities';
import { ensureSearchAttributes } from '../shared/temporal/search-attributes';
import { ensureExchangeRateSchedule } from '../shared/temporal/schedules';
import { createTemporalGateway } from '../shared/temporal/client';
import { scheduleEveryTeam } from '../shared/domain/insights/schedule';
import { scheduleEveryConnection } from '../shared/domain/bank-connections/scheduled-sync';
import { createWorker } from './create-worker';
import { installTemporalRuntime } from './temporal-logging';

export interface RunningWorker {
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Connects to Temporal, registers the search attributes, and polls the task queue until stopped. */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const logger = createLogger(config, { process: 'worker' });
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required by the worker');
  const db = createDb({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, logger });
  const deps = createActivityDeps(config, db);

  const admin = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  await ensureSearchAttributes(admin, config.TEMPORAL_NAMESPACE);
  if (config.FX_RATES_SCHEDULE) {
    const schedule = await ensureExchangeRateSchedule(
      new Client({ connection: admin, namespace: config.TEMPORAL_NAMESPACE }),
      config.TEMPORAL_TASK_QUEUE,
    );
    logger.info({ schedule }, 'exchange-rate schedule ready');
  }
  await admin.close();
  // Teams made while Temporal was away, or outside the API (the admin CLI, sign-up), get their weekly schedule here.
  const temporal = createTemporalGateway({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
  });
  await scheduleEveryTeam(db, temporal)
    .then((teams) => logger.info({ teams }, 'weekly insight schedules ready'))
    .catch((err: unknown) => logger.error({ err }, 'could not schedule the weekly insights'));
  await scheduleEveryConnection(db, temporal, config.BANK_SYNC_INTERVAL)
    .then((connections) => logger.info({ connections }, 'bank sync schedules ready'))
    .catch((err: unknown) => logger.error({ err }, 'could not schedule the bank syncs'))
    .finally(() => temporal.close());

  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await createWorker({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deps,
    bundlePath: config.WORKFLOW_BUNDLE_PATH,
  });
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, address: config.TEMPORAL_ADDRESS }, 'worker started');
  const done = worker.run().finally(async () => {
    await connection.close();
    await closeActivityDeps(deps);
    await db.destroy();
    logger.info('worker stopped');
  });
  return {
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

if (require.main === module) {
  const config = loadConfig();
  installTemporalRuntime(createLogger(config, { process: 'worker' }));
  startWorker(config)
    .then((w) => w.done)
    .catch((err: unknown) => {
      createLogger(config, { process: 'worker' }).fatal({ err }, 'worker failed');
      process.exit(1);
    });
}
