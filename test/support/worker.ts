import { randomBytes } from 'node:crypto';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { closeActivityDeps, createActivityDeps, type ActivityDeps } from '../../activities';
import type { Config } from '../../shared/config';
import type { Db } from '../../shared/db/knex';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { createWorker } from '../../worker/create-worker';
import { eventually } from './eventually';

export interface TestWorker {
  taskQueue: string;
  worker: Worker;
  deps: ActivityDeps;
  client: Client;
  stop(): Promise<void>;
}

/** A unique task queue per test file, so files sharing the dev server never take each other's tasks. */
/** A gateway to the test's Temporal server and the task queue its config names; the caller closes it. */
export const temporalGatewayOf = (
  config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE'>,
): TemporalGateway =>
  createTemporalGateway({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE });

export const uniqueTaskQueue = (label: string) => `test-${label}-${randomBytes(4).toString('hex')}`;

/**
 * A real worker (prebuilt bundle from the global setup, real activities unless overridden) on a
 * task queue of its own, running in the background until stop().
 */
export async function startTestWorker(
  config: Config,
  db: Db,
  opts: { taskQueue?: string; activities?: Record<string, unknown>; deps?: Partial<ActivityDeps> } = {},
): Promise<TestWorker> {
  const deps = createActivityDeps(config, db, opts.deps);
  const taskQueue = opts.taskQueue ?? deps.config.TEMPORAL_TASK_QUEUE;
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await createWorker({
    connection,
    namespace: 'default',
    taskQueue,
    deps,
    bundlePath: process.env.WORKFLOW_BUNDLE_PATH,
    activityOverrides: opts.activities,
  });
  const running = worker.run();
  const clientConnection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const client = new Client({ connection: clientConnection, namespace: 'default' });
  return {
    taskQueue,
    worker,
    deps,
    client,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await clientConnection.close();
      await closeActivityDeps(deps);
    },
  };
}

/**
 * Waits until a worker polls the task queue's workflow tasks: a worker process spawned on a loaded
 * machine can be slow to start, and a test that times a kill against a timer must start
 * the timer only then.
 */
export async function untilWorkerPolls(client: Client, taskQueue: string, timeoutMs = 120_000): Promise<void> {
  await eventually(
    async () => {
      // No type given: the workflow queue's pollers.
      const queue = await client.workflowService.describeTaskQueue({ namespace: client.options.namespace, taskQueue: { name: taskQueue } });
      return (queue.pollers?.length ?? 0) > 0;
    },
    timeoutMs,
    `a worker polling ${taskQueue}`,
  );
}
