import { Client, Connection, type ClientInterceptors } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { loadConfig, type Config } from '../shared/config';
import { createDb, type Db } from '../shared/db/knex';
import { createLogger, type Logger } from '../shared/logger';
import { useFontDir } from '../shared/domain/invoices/fonts';
import { closeActivityDeps, createActivityDeps } from '../activities';
import { ensureSearchAttributes } from '../shared/temporal/search-attributes';
import { ensureExchangeRateSchedule, ensureRetentionSchedule } from '../shared/temporal/schedules';
import { createTemporalGateway, type TemporalOptions } from '../shared/temporal/client';
import { describeTemporalConnection, temporalConnectionOptions, temporalGatewayOptions } from '../shared/temporal/connection-options';
import { startTracing, type Tracing } from '../shared/tracing/start';
import { tracedTemporalClient } from '../shared/tracing/temporal-client';
import type { Reconciled } from '../shared/temporal/reconcile';
import { scheduleEveryTeam } from '../shared/domain/insights/schedule';
import { scheduleEveryTeamCheckpoint } from '../shared/domain/audit-events/schedule';
import { scheduleEveryConnection } from '../shared/domain/bank-connections/scheduled-sync';
import { reEncryptUnderCurrentKey } from '../shared/domain/crypto/re-encrypt';
import { createWorker } from './create-worker';
import { workerTracing, type WorkerTracing } from './tracing';
import { installTemporalRuntime } from './temporal-logging';
import { startHealthServer, type HealthServer, type WorkerReadiness } from './health-server';
import { freeLoopbackPort, WorkerMetrics } from './metrics';
import { CHECK_TIMEOUT_MS, checkDependency, databaseAnswers, type DependencyCheck } from '../shared/dependency-check';

export interface RunningWorker {
  /** Where its /livez and /readyz answer. */
  probesUrl: string;
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Connects to Temporal, registers the search attributes, and polls the task queue until stopped.
 * Its probes answer from the start (`/livez` at once, `/readyz` once it polls), so an orchestrator
 * sees a worker that is still connecting as alive and not yet ready.
 */
export async function startWorker(config: Config, opts: { temporalMetricsUrl?: string } = {}): Promise<RunningWorker> {
  const logger = createLogger(config, { process: 'worker' });
  useFontDir(config.PDF_FONT_DIR);
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required by the worker');
  // Before the pool opens, so its queries are seen.
  const tracing = await startTracing(config, 'worker');
  if (tracing) logger.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing on');
  const db = createDb({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, logger });
  const traced = tracing && { tracing, worker: await workerTracing(tracing), client: await tracedTemporalClient() };
  const running: { connection?: NativeConnection; worker?: Worker } = {};
  const metrics = new WorkerMetrics(db, { processMetrics: true });
  const health = await startHealthServer({
    host: config.WORKER_HEALTH_HOST,
    port: config.WORKER_HEALTH_PORT,
    readiness: () => workerReadiness(db, running),
    scrape: metrics.scrape(opts.temporalMetricsUrl),
  }).catch(async (err: unknown) => {
    await db.destroy();
    await tracing?.shutdown();
    throw new Error(
      `the worker's probes cannot listen on ${config.WORKER_HEALTH_HOST}:${config.WORKER_HEALTH_PORT} (WORKER_HEALTH_PORT): ${(err as Error).message}`,
      { cause: err },
    );
  });
  logger.info({ url: health.url }, 'worker probes listening');
  try {
    return await pollUntilStopped(config, db, logger, running, health, metrics, traced);
  } catch (err) {
    await health.close();
    await tracing?.shutdown();
    throw err;
  }
}

async function pollUntilStopped(
  config: Config,
  db: Db,
  logger: Logger,
  running: { connection?: NativeConnection; worker?: Worker },
  health: HealthServer,
  metrics: WorkerMetrics,
  traced: TracedWorker | undefined,
): Promise<RunningWorker> {
  const temporalOptions: TemporalOptions = { ...temporalGatewayOptions(config), ...(traced ? { interceptors: traced.client } : {}) };
  const deps = createActivityDeps(config, db, { metrics, temporal: createTemporalGateway(temporalOptions) });

  const connectionOptions = temporalConnectionOptions(config);
  const admin = await Connection.connect(connectionOptions);
  await ensureSearchAttributes(admin, config.TEMPORAL_NAMESPACE);
  if (config.FX_RATES_SCHEDULE) {
    const schedule = await ensureExchangeRateSchedule(
      new Client({ connection: admin, namespace: config.TEMPORAL_NAMESPACE }),
      config.TEMPORAL_TASK_QUEUE,
    );
    logger.info({ schedule }, 'exchange-rate schedule ready');
  }
  if (config.RETENTION_SCHEDULE) {
    const schedule = await ensureRetentionSchedule(
      new Client({ connection: admin, namespace: config.TEMPORAL_NAMESPACE }),
      config.TEMPORAL_TASK_QUEUE,
      { batchSize: config.RETENTION_BATCH_SIZE },
    );
    logger.info({ schedule }, 'retention schedule ready');
  }
  await admin.close();

  const connection = await NativeConnection.connect(connectionOptions);
  const worker = await createWorker({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deps,
    bundlePath: config.WORKFLOW_BUNDLE_PATH,
    shutdownGraceMs: config.WORKER_SHUTDOWN_GRACE,
    tracing: traced?.worker,
  });
  Object.assign(running, { connection, worker });
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, ...describeTemporalConnection(connectionOptions) }, 'worker started');
  const stopping = new AbortController();
  const polling = worker.run();
  const inLine = bringSchedulesInLine(db, temporalOptions, config, logger, stopping.signal);
  const done = (async () => {
    // Rejected when activities outlast WORKER_SHUTDOWN_GRACE and the margin after it: they are left to
    // Temporal, which retries them elsewhere once their timeout passes.
    let failure: Error | undefined;
    try {
      await polling;
    } catch (err) {
      failure = err as Error;
    }
    stopping.abort();
    await inLine;
    await health.close();
    // A worker cut off mid-activity still holds its connection, which then refuses to close.
    if (failure === undefined) await connection.close();
    await closeActivityDeps(deps);
    await db.destroy();
    await traced?.tracing.shutdown();
    if (failure !== undefined) throw failure;
    logger.info('worker stopped');
  })();
  return {
    probesUrl: health.url,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

/** A worker's tracing: spans of its own, its activities' interceptor, and its Temporal client's. */
interface TracedWorker {
  tracing: Tracing;
  worker: WorkerTracing;
  client: ClientInterceptors;
}

/** Ready while it polls: PostgreSQL and Temporal answer, and the worker runs (not starting, not draining). */
async function workerReadiness(db: Db, running: { connection?: NativeConnection; worker?: Worker }): Promise<WorkerReadiness> {
  const { connection, worker } = running;
  const [database, temporal] = await Promise.all([
    checkDependency(() => databaseAnswers(db)),
    checkDependency(async () => {
      if (!connection) throw new Error('not connected yet');
      await connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () => connection.workflowService.getSystemInfo({}));
    }),
  ]);
  const state = worker?.getState() ?? 'starting';
  const polling: DependencyCheck =
    state === 'RUNNING' ? { status: 'up', latencyMs: 0 } : { status: 'down', latencyMs: 0, error: `the worker is ${state.toLowerCase()}` };
  const checks = { database, temporal, polling };
  return { ready: Object.values(checks).every((c) => c.status === 'up'), checks };
}

/**
 * Teams and connections made while Temporal was away, or outside the API (the admin CLI, sign-up),
 * get their weekly-insights, audit-checkpoint and bank-sync schedules here, and a rotated key its ReEncrypt run.
 * Beside the polling worker, not before it:
 * a schedule call is three round trips, and ten thousand teams' calls one after another kept a new
 * worker from its task queue for as long as they took.
 */
async function bringSchedulesInLine(
  db: Db,
  temporalOptions: TemporalOptions,
  config: Config,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  const temporal = createTemporalGateway(temporalOptions);
  const report = async (what: string, pass: () => Promise<Reconciled>) => {
    const started = Date.now();
    try {
      const { checked, failed, firstError } = await pass();
      const ms = Date.now() - started;
      if (failed)
        logger.error(
          { err: firstError, checked, failed, ms },
          `some ${what} could not be brought in line; the next worker start tries again`,
        );
      else logger.info({ checked, ms }, `${what} ready`);
    } catch (err) {
      logger.error({ err }, `could not bring the ${what} in line`);
    }
  };
  try {
    // A rotated ENCRYPTION_KEY: values still sealed under a retired key are sealed again under the new one.
    // First, as it is one call and the schedule passes may take long on a large installation.
    const reEncrypting = await reEncryptUnderCurrentKey(temporal, config).catch((err: unknown) => {
      logger.error({ err }, 'could not start re-encrypting under the current key; the next worker start tries again');
      return null;
    });
    if (reEncrypting) logger.info({ workflowId: reEncrypting }, 're-encrypting values sealed under retired keys');
    await report('weekly insight schedules', () => scheduleEveryTeam(db, temporal, signal));
    await report('audit checkpoint schedules', () => scheduleEveryTeamCheckpoint(db, temporal, signal));
    await report('bank sync schedules', () => scheduleEveryConnection(db, temporal, config.BANK_SYNC_INTERVAL, signal));
  } finally {
    await temporal.close();
  }
}

if (require.main === module) {
  const config = loadConfig();
  // Temporal's runtime shuts the worker down on SIGTERM and SIGINT; once its activities have finished
  // (or WORKER_SHUTDOWN_GRACE has passed) `done` settles, and nothing is left to wait for. The SDK's
  // metrics exporter listens on a loopback port of its own, read through the worker's /metrics.
  freeLoopbackPort()
    .then((port) => {
      installTemporalRuntime(createLogger(config, { process: 'worker' }), { metricsBindAddress: `127.0.0.1:${port}` });
      return startWorker(config, { temporalMetricsUrl: `http://127.0.0.1:${port}/metrics` });
    })
    .then((w) => w.done)
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      createLogger(config, { process: 'worker' }).fatal({ err }, 'worker failed');
      process.exit(1);
    });
}
