import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { startWebhookDeliveryRelay } from '../../api/outbox/webhook-delivery-relay';
import type { RepeatingPass } from '../../api/outbox/repeating-pass';
import { attemptWebhookDelivery, claimDueWebhookDeliveries } from '../../shared/domain/webhook-endpoints/deliveries';
import { emitEvent } from '../../shared/domain/webhook-endpoints/events';
import { createWebhookEndpoint } from '../../shared/domain/webhook-endpoints/service';
import { createLogger } from '../../shared/logger';
import type { TemporalGateway } from '../../shared/temporal/client';
import { webhookDeliveryId, webhookDeliveryProgress, type WebhookDeliveryWorkflow } from '../../shared/temporal/webhook-delivery/contract';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { startTestWorker, uniqueTaskQueue, type TestWorker, temporalGatewayOf } from '../support/worker';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The relay makes each delivery's first attempt itself: one that succeeds starts no workflow; one
 * that fails starts a WebhookDelivery run that waits the first backoff and goes on from attempt 2,
 * never sending attempt 1 again. A claim lost with its process (mid-attempt, or after a failed
 * attempt and before the run's start) is claimed again once stale, and a run then delivers it.
 */
const config = testConfig({
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  TEMPORAL_TASK_QUEUE: uniqueTaskQueue('hook-relay'),
  WEBHOOK_RETRY_INITIAL_INTERVAL: '2s',
  WEBHOOK_RETRY_MAX_INTERVAL: '2s',
  WEBHOOK_RETRY_WINDOW: '5m',
  WEBHOOK_DISABLE_AFTER: '1h',
});
let temporal: TemporalGateway;
let client: Client;
let worker: TestWorker;
const receivers: WebhookReceiver[] = [];
const relays: RepeatingPass[] = [];

const tdb = withTestDatabase({
  setUp: async () => {
    temporal = temporalGatewayOf(config);
    client = await temporal.client();
    worker = await startTestWorker(config, tdb.db);
  },
  tearDown: async () => {
    for (const r of receivers) await r.close();
    await worker?.stop();
    await temporal?.close();
  },
});

// A relay left running would take the next test's deliveries (each commit wakes it).
afterEach(async () => {
  for (const r of relays.splice(0)) await r.stop();
});

const metrics = { attempts: [] as string[], deliveryAttempt: (o: string) => void metrics.attempts.push(o) };
const relay = () => {
  const r = startWebhookDeliveryRelay({ db: tdb.db, temporal, config, logger: createLogger(config), metrics }, { intervalMs: 10 * 60_000 });
  relays.push(r);
  return r;
};

/** One `invoice.paid` delivery queued for an endpoint on loopback answering `statuses`. */
async function queued(label: string, receiverOpts: Parameters<typeof startWebhookReceiver>[0]) {
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
  const { id: deliveryId } = await tdb.db('webhook_deliveries').where({ endpointId: endpoint.id }).first<{ id: string }>('id');
  return {
    receiver,
    deliveryId,
    row: () => tdb.db('webhook_deliveries').where({ id: deliveryId }).first<{ status: string; attempts: number }>('status', 'attempts'),
    attempts: () =>
      tdb
        .db('webhook_delivery_attempts')
        .where({ deliveryId })
        .orderBy('attempt')
        .select<{ attempt: number; statusCode: number | null; createdAt: Date }[]>('attempt', 'statusCode', 'createdAt'),
    failingSince: async () =>
      (await tdb.db('webhook_endpoints').where({ id: endpoint.id }).first<{ failingSince: Date | null }>('failingSince')).failingSince,
    run: () => client.workflow.getHandle<WebhookDeliveryWorkflow>(webhookDeliveryId(deliveryId)),
  };
}

describe('the webhook delivery relay', () => {
  it('delivers on the first try itself and starts no workflow', async () => {
    const d = await queued('first-try', {});
    metrics.attempts.length = 0;
    expect(await relay().runOnce()).toBe(1);

    expect(d.receiver.received.map((r) => [r.status, r.headers['webhook-id']])).toEqual([[200, d.deliveryId]]);
    expect(await d.row()).toEqual({ status: 'delivered', attempts: 1 });
    expect((await d.attempts()).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);
    await expect(d.run().describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(metrics.attempts).toEqual(['delivered']);
  }, 30_000);

  it('a failed first try starts a run that waits the backoff and goes on from attempt 2, without sending attempt 1 again', async () => {
    const d = await queued('first-fails', { statuses: [503, 500] });
    metrics.attempts.length = 0;
    expect(await relay().runOnce()).toBe(1);

    // Handed over: the relay's attempt is recorded, the run started and waits to retry.
    expect(d.receiver.received.map((r) => r.status)).toEqual([503]);
    expect(await d.row()).toEqual({ status: 'running', attempts: 1 });
    expect(metrics.attempts).toEqual(['failed']);
    expect(await d.failingSince()).toEqual(expect.any(Date));
    const progress = await d.run().query(webhookDeliveryProgress);
    expect(progress).toMatchObject({ stage: 'waiting_to_retry', attempts: 1, lastStatusCode: 503, nextAttemptAt: expect.any(String) });

    expect(await d.run().result()).toEqual({ stage: 'delivered', attempts: 3, lastStatusCode: 200, nextAttemptAt: null });
    expect(d.receiver.received.map((r) => r.status)).toEqual([503, 500, 200]);
    expect(new Set(d.receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([d.deliveryId]));
    const attempts = await d.attempts();
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 503],
      [2, 500],
      [3, 200],
    ]);
    // Attempt 2 came after the first wait (2s), not at once.
    expect(attempts[1].createdAt.getTime() - attempts[0].createdAt.getTime()).toBeGreaterThanOrEqual(1900);
    expect(await d.row()).toEqual({ status: 'delivered', attempts: 3 });
    // A success ends the endpoint's failing spell.
    expect(await d.failingSince()).toBeNull();
  }, 60_000);

  it('a claim lost mid-attempt, or after a failed attempt before its run started, is claimed again once stale and delivered by a run', async () => {
    const midAttempt = await queued('lost-mid-attempt', {});
    const afterFailure = await queued('lost-after-failure', { statuses: [500] });
    // A relay that claimed both and died: before recording the first attempt, and after recording the second's failure.
    const claimed = await claimDueWebhookDeliveries(tdb.db, { limit: 10, staleAfterS: 60 });
    expect(claimed.map((c) => c.deliveryId).sort()).toEqual([midAttempt.deliveryId, afterFailure.deliveryId].sort());
    expect(await attemptWebhookDelivery({ db: tdb.db, config }, afterFailure.deliveryId, undefined, { whileClaimed: true })).toEqual({
      outcome: 'failed',
      attempt: 1,
      statusCode: 500,
    });
    expect(await afterFailure.row()).toEqual({ status: 'starting', attempts: 1 });

    // Another relay leaves claims younger than staleAfterS alone, and takes them once older.
    const other = relay();
    expect(await other.runOnce()).toBe(0);
    await tdb
      .db('webhook_deliveries')
      .whereIn('id', [midAttempt.deliveryId, afterFailure.deliveryId])
      .update({
        claimedAt: tdb.db.raw(`now() - interval '2 minutes'`),
      });
    expect(await other.runOnce()).toBe(2);

    expect(await midAttempt.run().result()).toMatchObject({ stage: 'delivered', attempts: 1, lastStatusCode: 200 });
    expect(await afterFailure.run().result()).toMatchObject({ stage: 'delivered', attempts: 2, lastStatusCode: 200 });
    expect(midAttempt.receiver.received.map((r) => r.status)).toEqual([200]);
    expect(afterFailure.receiver.received.map((r) => r.status)).toEqual([500, 200]);
    expect((await afterFailure.attempts()).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(await afterFailure.row()).toEqual({ status: 'delivered', attempts: 2 });
  }, 60_000);
});
