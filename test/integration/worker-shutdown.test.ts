import type { ChildProcess } from 'node:child_process';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { workerProcesses } from '../support/processes';
import { claimedWebhookDelivery } from '../support/webhook-delivery';

/**
 * SIGTERM to a worker process (a deploy, a scale-in): it stops polling, lets the activity in flight
 * finish within WORKER_SHUTDOWN_GRACE and exits; an activity that outlasts the grace does not keep
 * the process for longer than a few seconds more. The activity is a webhook delivery to a slow
 * customer endpoint.
 */
const cleanUps: Array<() => Promise<void>> = [];
const tdb = withTestDatabase({
  tearDown: async () => {
    await workers.killAll();
    for (const c of cleanUps) await c();
  },
});
const workers = workerProcesses(() => tdb.url);

const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));

describe('worker shutdown', () => {
  it('lets the activity in flight finish, records its outcome, then exits 0', async () => {
    const t = await claimedWebhookDelivery(tdb.db, tdb.url, 'drain', { answerAfterMs: 3000 });
    cleanUps.push(
      () => t.receiver.close(),
      () => t.temporal.close(),
    );
    const worker = workers.start({ ...t.env, WORKER_SHUTDOWN_GRACE: '30s' });
    const exited = exitOf(worker);
    expect(await t.start()).toBe(true);
    await eventually(() => Promise.resolve(t.receiver.arrived === 1), 60_000, 'the delivery to reach the endpoint');

    worker.kill('SIGTERM');
    const { code } = await exited;
    expect(code).toBe(0);
    // Answered and recorded by the activity before the process went.
    expect(t.receiver.received.map((r) => r.status)).toEqual([200]);
    expect(await t.attempts()).toEqual([{ attempt: 1, statusCode: 200 }]);
  }, 120_000);

  it('does not wait for an activity past WORKER_SHUTDOWN_GRACE', async () => {
    // The endpoint never answers, and the attempt would wait two minutes for it.
    const t = await claimedWebhookDelivery(tdb.db, tdb.url, 'drain-bound', { holdFirst: true }, { WEBHOOK_TIMEOUT: '120s' });
    cleanUps.push(
      () => t.receiver.close(),
      () => t.temporal.close(),
    );
    const worker = workers.start({ ...t.env, WORKER_SHUTDOWN_GRACE: '1s' });
    const exited = exitOf(worker);
    expect(await t.start()).toBe(true);
    await eventually(() => Promise.resolve(t.receiver.arrived === 1), 60_000, 'the delivery to reach the endpoint');

    const signalled = Date.now();
    worker.kill('SIGTERM');
    const { code, at } = await exited;
    // The grace, the margin for cancelled activities to wind up, and the process's own exit.
    expect(at - signalled).toBeLessThan(12_000);
    // Not a clean stop: the activity was abandoned to Temporal's retry.
    expect(code).toBe(1);
    expect(await t.attempts()).toEqual([]);
  }, 120_000);
});
