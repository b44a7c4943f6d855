import type { ChildProcess } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { attemptWebhookDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { isAlive, killHard, workerProcesses } from '../support/processes';
import { claimedWebhookDelivery } from '../support/webhook-delivery';
import { type startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * WebhookDelivery with the worker killed: while it waits to retry (the durable timer fires on the
 * next worker: nothing lost, nothing sent early or twice), and in the middle of a request (the
 * attempt is sent again with the same webhook-id, so the receiver can drop the repeat; exactly one
 * attempt is answered and recorded as the success).
 */
const cleanUps: Array<() => Promise<void>> = [];

const tdb = withTestDatabase({
  tearDown: async () => {
    await workers.killAll();
    for (const c of cleanUps) await c();
  },
});
const workers = workerProcesses(() => tdb.url);

async function setUp(label: string, receiverOpts: Parameters<typeof startWebhookReceiver>[0], extraEnv: Record<string, string>) {
  const delivery = await claimedWebhookDelivery(tdb.db, tdb.url, label, receiverOpts, extraEnv);
  cleanUps.push(
    () => delivery.receiver.close(),
    () => delivery.temporal.close(),
  );
  const startWorker = () => workers.start(delivery.env);
  const first = startWorker();
  expect(await delivery.start()).toBe(true);
  return { ...delivery, first, startWorker, handle: await delivery.handle() };
}

async function kill(child: ChildProcess) {
  await killHard(child);
  expect(isAlive(child.pid!)).toBe(false);
}

function verifies(secret: string, r: WebhookReceiver['received'][number]) {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

describe('WebhookDelivery survives a killed worker', () => {
  it('killed while waiting to retry: the next worker sends the next attempt; each attempt sent once, delivered once', async () => {
    const t = await setUp(
      'hook-kill-wait',
      { statuses: [500, 500] },
      // Long enough that the first worker, busy on a loaded machine, is surely killed before its timer fires.
      { WEBHOOK_RETRY_INITIAL_INTERVAL: '6s', WEBHOOK_RETRY_MAX_INTERVAL: '6s' },
    );
    await eventually(async () => (await t.attempts()).length === 1, 60_000, 'the first attempt');
    await kill(t.first);
    expect(t.receiver.received).toHaveLength(1);

    t.startWorker();
    expect(await t.handle.result()).toMatchObject({ stage: 'delivered', attempts: 3, lastStatusCode: 200 });
    expect(t.receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(await t.attempts()).toEqual([
      { attempt: 1, statusCode: 500 },
      { attempt: 2, statusCode: 500 },
      { attempt: 3, statusCode: 200 },
    ]);
    expect(new Set(t.receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([t.deliveryId]));
    for (const r of t.receiver.received) expect(verifies(t.endpoint.secret, r)).toMatchObject({ type: 'invoice.paid' });
    expect(await tdb.db('webhook_deliveries').where({ id: t.deliveryId }).first('status', 'attempts')).toEqual({
      status: 'delivered',
      attempts: 3,
    });
    await new Promise((r) => setTimeout(r, 2000));
    expect(t.receiver.received).toHaveLength(3);
  }, 120_000);

  it('killed mid-request: the attempt is sent again with the same webhook-id and the success is recorded once', async () => {
    const t = await setUp('hook-kill-request', { holdFirst: true }, { WEBHOOK_RETRY_INITIAL_INTERVAL: '1s', WEBHOOK_TIMEOUT: '2s' });
    await eventually(() => Promise.resolve(t.receiver.received.length === 1), 60_000, 'the first request to arrive');
    await kill(t.first);
    expect(await t.attempts()).toEqual([]);

    t.startWorker();
    expect(await t.handle.result()).toMatchObject({ stage: 'delivered', lastStatusCode: 200 });
    // The cut-off request and its repeat: one webhook-id, one answer.
    expect(t.receiver.received.map((r) => r.status)).toEqual([0, 200]);
    expect(new Set(t.receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([t.deliveryId]));
    expect(t.receiver.received[0].body).toBe(t.receiver.received[1].body);
    expect(await t.attempts()).toEqual([{ attempt: 1, statusCode: 200 }]);
    expect(await tdb.db('webhook_deliveries').where({ id: t.deliveryId }).first('status')).toEqual({ status: 'delivered' });
    await new Promise((r) => setTimeout(r, 2000));
    expect(t.receiver.received).toHaveLength(2);
  }, 120_000);

  it('an attempt whose completion was lost is retried: it reports the attempt that delivered, and sends nothing', async () => {
    const d = await claimedWebhookDelivery(tdb.db, tdb.url, 'hook-lost-completion', { statuses: [201] });
    cleanUps.push(
      () => d.receiver.close(),
      () => d.temporal.close(),
    );
    const deps = { db: tdb.db, config: testConfig({ ...d.env, DATABASE_URL: tdb.url }) };
    const first = await attemptWebhookDelivery(deps, d.deliveryId);
    expect(first).toEqual({ outcome: 'delivered', attempt: 1, statusCode: 201 });
    // The activity's retry, as when the worker that sent it died before reporting.
    expect(await attemptWebhookDelivery(deps, d.deliveryId)).toEqual(first);
    expect(d.receiver.received).toHaveLength(1);
    expect(await d.attempts()).toEqual([{ attempt: 1, statusCode: 201 }]);
  });
});
