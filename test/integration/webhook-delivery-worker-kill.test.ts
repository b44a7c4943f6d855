import type { ChildProcess } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import type { WebhookDeliveryWorkflow } from '../../shared/temporal/webhook-delivery/contract';
import { claimDueWebhookDeliveries, startClaimedDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import { emitEvent } from '../../shared/domain/webhook-endpoints/events';
import { createWebhookEndpoint } from '../../shared/domain/webhook-endpoints/service';
import { createLogger } from '../../shared/logger';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * WebhookDelivery with the worker killed: while it waits to retry (the durable timer fires on the
 * next worker: nothing lost, nothing sent early or twice), and in the middle of a request (the
 * attempt is sent again with the same webhook-id, so the receiver can drop the repeat; exactly one
 * attempt is answered and recorded as the success).
 */
let temporal: TemporalGateway;
const workers: ChildProcess[] = [];
const receivers: WebhookReceiver[] = [];

const tdb = withTestDatabase({
  tearDown: async () => {
    for (const w of workers) await killHard(w);
    for (const r of receivers) await r.close();
    await temporal?.close();
  },
});

async function setUp(label: string, receiverOpts: Parameters<typeof startWebhookReceiver>[0], extraEnv: Record<string, string>) {
  const env = {
    TEMPORAL_TASK_QUEUE: uniqueTaskQueue(label),
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_WINDOW: '5m',
    WEBHOOK_DISABLE_AFTER: '1h',
    ...extraEnv,
  };
  const config = testConfig({ ...env, DATABASE_URL: tdb.url });
  await temporal?.close();
  temporal = createTemporalGateway({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: env.TEMPORAL_TASK_QUEUE,
  });
  const receiver = await startWebhookReceiver(receiverOpts);
  receivers.push(receiver);
  const owner = await createTeamAndOwner(tdb.db, label);
  const endpoint = await createWebhookEndpoint({ db: tdb.db, config }, owner.team.id, { url: receiver.url, eventTypes: ['invoice.paid'] });
  await emitEvent(tdb.db, owner.team.id, 'invoice.paid', {
    invoiceId: '6f1f4ab0-3c4e-4d55-9a43-52a8a0c1e001',
    invoiceNumber: 'INV-0042',
    status: 'paid',
    dueDate: '2026-11-30',
    paidAt: '2026-11-25T10:00:00.000Z',
  });
  const [due] = (await claimDueWebhookDeliveries(tdb.db, { limit: 10, staleAfterS: 60 })).filter((d) => d.endpointId === endpoint.id);
  const startWorker = () => {
    const child = spawnTs('worker/main.ts', {
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...env },
      stdio: 'ignore',
    });
    workers.push(child);
    return child;
  };
  const first = startWorker();
  expect(await startClaimedDelivery({ db: tdb.db, temporal, config, logger: createLogger(config) }, due)).toBe(true);
  const handle = (await temporal.client()).workflow.getHandle<WebhookDeliveryWorkflow>(`webhook-delivery:${due.deliveryId}`);
  return { receiver, endpoint, deliveryId: due.deliveryId, first, startWorker, handle };
}

const attemptsOf = (deliveryId: string) =>
  tdb
    .db('webhook_delivery_attempts')
    .where({ deliveryId })
    .orderBy('attempt')
    .select<{ attempt: number; statusCode: number | null }[]>('attempt', 'statusCode');

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
      { WEBHOOK_RETRY_INITIAL_INTERVAL: '3s', WEBHOOK_RETRY_MAX_INTERVAL: '3s' },
    );
    await eventually(async () => (await attemptsOf(t.deliveryId)).length === 1, 60_000, 'the first attempt');
    await kill(t.first);
    expect(t.receiver.received).toHaveLength(1);

    t.startWorker();
    expect(await t.handle.result()).toMatchObject({ stage: 'delivered', attempts: 3, lastStatusCode: 200 });
    expect(t.receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(await attemptsOf(t.deliveryId)).toEqual([
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
    expect(await attemptsOf(t.deliveryId)).toEqual([]);

    t.startWorker();
    expect(await t.handle.result()).toMatchObject({ stage: 'delivered', lastStatusCode: 200 });
    // The cut-off request and its repeat: one webhook-id, one answer.
    expect(t.receiver.received.map((r) => r.status)).toEqual([0, 200]);
    expect(new Set(t.receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([t.deliveryId]));
    expect(t.receiver.received[0].body).toBe(t.receiver.received[1].body);
    expect(await attemptsOf(t.deliveryId)).toEqual([{ attempt: 1, statusCode: 200 }]);
    expect(await tdb.db('webhook_deliveries').where({ id: t.deliveryId }).first('status')).toEqual({ status: 'delivered' });
    await new Promise((r) => setTimeout(r, 2000));
    expect(t.receiver.received).toHaveLength(2);
  }, 120_000);
});
