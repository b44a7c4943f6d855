import { randomUUID } from 'node:crypto';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { retentionContract, type RetentionWorkflow } from '../../shared/temporal/retention/contract';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { isAlive, killHard, workerProcesses } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * Retention with its worker killed in the middle of a kind: a restarted worker takes the activity up
 * again, the batches already done stay done, and the run ends with exactly the old rows pruned and
 * the recent ones untouched.
 */
let temporal: TemporalGateway;
const tdb = withTestDatabase({
  tearDown: async () => {
    await workers.killAll();
    await temporal?.close();
  },
});
const workers = workerProcesses(() => tdb.url);

const OLD = 8_000;
const RECENT = 50;

describe('Retention survives a worker killed mid-prune', () => {
  it('prunes every old payload once the run is taken up again, and no recent one', async () => {
    const { db } = tdb;
    await db.raw(
      `insert into webhook_events (provider, event_key, event_type, outcome, payload, received_at, processed_at)
       select 'payments', 'old-' || i, 'x', 'processed', '{"a":1}'::jsonb, now() - interval '40 days', now() - interval '40 days'
         from generate_series(1, ?) i
       union all
       select 'payments', 'recent-' || i, 'x', 'processed', '{"a":1}'::jsonb, now() - interval '1 day', now() - interval '1 day'
         from generate_series(1, ?) i`,
      [OLD, RECENT],
    );
    const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('retention-kill') };
    const config = testConfig(env);
    temporal = createTemporalGateway({
      address: config.TEMPORAL_ADDRESS,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
    });
    const client = await temporal.client();
    const first = workers.start(env);
    // Batches of 5: thousands of statements, so the kill lands inside the kind.
    const handle = await client.workflow.start<RetentionWorkflow>(retentionContract.workflowType, {
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      workflowId: `retention-kill-${randomUUID()}`,
      args: [{ batchSize: 5 }],
    });
    const emptied = async () => Number((await db('webhook_events').whereNull('payload').count({ n: '*' }))[0].n);
    await eventually(async () => (await emptied()) >= 500, 60_000, 'the prune to be under way');
    await killHard(first);
    expect(isAlive(first.pid!)).toBe(false);
    const atKill = await emptied();
    expect(atKill).toBeLessThan(OLD);

    workers.start(env);
    const result = await handle.result();

    expect(await emptied()).toBe(OLD);
    const kept = await db('webhook_events').whereNotNull('payload').pluck('event_key');
    expect(kept).toHaveLength(RECENT);
    expect(kept.every((k: string) => k.startsWith('recent-'))).toBe(true);
    // The retry counts on from the killed attempt's last heartbeat: it adds all it removed itself
    // (OLD - atKill) to what that heartbeat said, so batches done after the heartbeat reached Temporal
    // are done but not counted, and the count never exceeds what was done.
    expect(result.stage).toBe('done');
    expect(result.removed.webhook_payloads).toBeGreaterThanOrEqual(OLD - atKill);
    expect(result.removed.webhook_payloads).toBeLessThanOrEqual(OLD);
  }, 180_000);
});
