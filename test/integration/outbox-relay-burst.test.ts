import type { Client } from '@temporalio/client';
import { startNotificationRelay } from '../../api/outbox/notification-relay';
import { startWebhookDeliveryRelay } from '../../api/outbox/webhook-delivery-relay';
import type { RepeatingPass } from '../../api/outbox/repeating-pass';
import { notify } from '../../shared/domain/notifications/service';
import { updateNotificationSetting } from '../../shared/domain/notifications/settings';
import { emitEvents } from '../../shared/domain/webhook-endpoints/events';
import { createWebhookEndpoint } from '../../shared/domain/webhook-endpoints/service';
import { createLogger } from '../../shared/logger';
import type { TemporalGateway } from '../../shared/temporal/client';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { notificationDeliveryId } from '../../shared/temporal/notification-delivery/contract';
import { webhookDeliveryId } from '../../shared/temporal/webhook-delivery/contract';
import { uniqueTaskQueue, temporalGatewayOf } from '../support/worker';

/**
 * The outbox relays with a burst waiting: a pass starts its runs several at a time (each start is a
 * round trip to Temporal, and one after another they held every other team's rows back), and a
 * start that fails among them leaves only its own row due, for a later pass. The webhook relay
 * attempts each delivery first and starts runs for the failures. No worker polls the task queue:
 * what is asserted is the relay's part, the runs started and the rows' states.
 */
let temporal: TemporalGateway;
let client: Client;
const BURST = 40;
const config = testConfig({ WEBHOOKS_ALLOW_PRIVATE: 'true', TEMPORAL_TASK_QUEUE: uniqueTaskQueue('relay-burst') });

const tdb = withTestDatabase({
  setUp: async () => {
    temporal = temporalGatewayOf(config);
    client = await temporal.client();
  },
  tearDown: async () => {
    await temporal?.close();
  },
});
const deps = () => ({ db: tdb.db, temporal, config, logger: createLogger(config) });
afterEach(() => jest.restoreAllMocks());

/**
 * Watches the client's starts: how many were in flight at most, which workflow ids were started (and their inputs),
 * and refuses (as an unreachable frontend would) the ids `refuse` picks.
 */
function watchStarts(refuse: ReadonlySet<string> = new Set()) {
  const real = client.workflow.start.bind(client.workflow);
  const seen = { inFlight: 0, most: 0, started: [] as string[], refused: [] as string[], inputs: [] as unknown[] };
  jest.spyOn(client.workflow, 'start').mockImplementation(async (type, options) => {
    seen.inFlight++;
    seen.inputs.push(options.args?.[0]);
    seen.most = Math.max(seen.most, seen.inFlight);
    try {
      // A turn of the event loop, so that starts made together are seen together.
      await new Promise((resolve) => setImmediate(resolve));
      if (refuse.has(options.workflowId)) {
        seen.refused.push(options.workflowId);
        throw new Error('frontend unavailable');
      }
      const handle = await real(type, options);
      seen.started.push(options.workflowId);
      return handle;
    } finally {
      seen.inFlight--;
    }
  });
  return seen;
}

/**
 * The relay's two passes over a burst of outbox rows (`ids`, one run each, named by `runId`): the
 * first starts the runs several at a time, one in eight refused, and leaves the refused rows due
 * (`pending`) and the others at `started`; the second starts exactly the refused ones; a third finds
 * nothing. Stops the relay either way.
 */
async function twoPasses(
  relay: RepeatingPass,
  burst: { ids: string[]; runId: (id: string) => string; statuses: () => Promise<Record<string, string>>; started: string },
) {
  const { ids, runId, statuses, started } = burst;
  const refusedIds = new Set(ids.filter((_, i) => i % 8 === 3));
  const refusedRuns = [...refusedIds].map(runId).sort();
  try {
    const first = watchStarts(new Set(refusedRuns));
    expect(await relay.runOnce()).toBe(ids.length);
    expect(first.most).toBeGreaterThan(1);
    expect(first.most).toBeLessThanOrEqual(16);
    expect(first.refused.sort()).toEqual(refusedRuns);
    expect(first.started).toHaveLength(ids.length - refusedIds.size);
    const after = await statuses();
    for (const id of ids) expect([id, after[id]]).toEqual([id, refusedIds.has(id) ? 'pending' : started]);

    jest.restoreAllMocks();
    const second = watchStarts();
    expect(await relay.runOnce()).toBe(refusedIds.size);
    expect(second.started.sort()).toEqual(refusedRuns);
    expect(Object.values(await statuses())).toEqual(ids.map(() => started));
    expect(await relay.runOnce()).toBe(0);
  } finally {
    await relay.stop();
  }
}

/** Each row's status, by the column that names its run. */
const statusesOf = (table: string, idColumn: string, ids: string[]) => async () =>
  Object.fromEntries(
    (await tdb.db(table).whereIn(idColumn, ids).select(`${idColumn} as id`, 'status')).map((r: { id: string; status: string }) => [
      r.id,
      r.status,
    ]),
  );

// A poll too slow to matter: every pass here is asked for.
const NO_POLL = { intervalMs: 10 * 60_000 };

describe('the webhook delivery relay with a burst waiting', () => {
  it('attempts several at a time and starts a run for each failure; a refused start is left claimed, and handed to a run once stale', async () => {
    const owner = await createTeamAndOwner(tdb.db, 'Burst');
    // Nothing listens there: every first attempt fails at once.
    await createWebhookEndpoint(deps(), owner.team.id, { url: 'http://127.0.0.1:9/hook', eventTypes: ['invoice.paid'] });
    const events = Array.from({ length: BURST }, (_, i) => ({
      invoiceId: `6f1f4ab0-3c4e-4d55-9a43-52a8a0c1e${String(i).padStart(3, '0')}`,
      invoiceNumber: `INV-${i}`,
      status: 'paid' as const,
      dueDate: '2026-11-30',
      paidAt: '2026-11-25T10:00:00.000Z',
    }));
    expect(await emitEvents(tdb.db, owner.team.id, 'invoice.paid', events)).toBe(BURST);
    const ids: string[] = await tdb.db('webhook_deliveries').where({ teamId: owner.team.id }).orderBy('created_at').pluck('id');
    const rows = async () =>
      Object.fromEntries(
        (await tdb.db('webhook_deliveries').whereIn('id', ids).select('id', 'status', 'attempts')).map(
          (r: { id: string; status: string; attempts: number }) => [r.id, `${r.status}/${r.attempts}`],
        ),
      );
    const refusedIds = new Set(ids.filter((_, i) => i % 8 === 3));
    const refusedRuns = [...refusedIds].map(webhookDeliveryId).sort();
    const relay = startWebhookDeliveryRelay(deps(), { ...NO_POLL, atOnce: 16 });
    try {
      const first = watchStarts(new Set(refusedRuns));
      // The pass takes as many as it has hands for; those that follow as hands free up take the rest.
      expect(await relay.runOnce()).toBe(16);
      expect(first.most).toBeGreaterThan(1);
      expect(first.most).toBeLessThanOrEqual(16);
      expect(first.refused.sort()).toEqual(refusedRuns);
      expect(first.started).toHaveLength(BURST - refusedIds.size);
      // Each run goes on from the relay's attempt.
      expect(first.inputs).toHaveLength(BURST);
      for (const input of first.inputs) expect(input).toMatchObject({ continueFrom: { attempts: 1, lastStatusCode: null } });
      const after = await rows();
      for (const id of ids) expect([id, after[id]]).toEqual([id, refusedIds.has(id) ? 'starting/1' : 'running/1']);
      // Not due again until the claim is stale: attempted at once again, it would skip the backoff.
      expect(await relay.runOnce()).toBe(0);

      jest.restoreAllMocks();
      // As if their claims had been left for longer than staleAfterS.
      await tdb
        .db('webhook_deliveries')
        .whereIn('id', [...refusedIds])
        .update({ claimedAt: tdb.db.raw(`now() - interval '2 minutes'`) });
      const second = watchStarts();
      expect(await relay.runOnce()).toBe(refusedIds.size);
      expect(second.started.sort()).toEqual(refusedRuns);
      // Handed over without another attempt by the relay: the run makes the next.
      expect(Object.values(await rows())).toEqual(ids.map(() => 'running/1'));
      expect(await relay.runOnce()).toBe(0);
    } finally {
      await relay.stop();
    }
    // Each delivery has its run in Temporal.
    for (const id of ids) await expect(client.workflow.getHandle(webhookDeliveryId(id)).describe()).resolves.toBeTruthy();
  }, 60_000);
});

describe('the notification relay with a burst waiting', () => {
  it('starts the runs several at a time; a refused start puts its emails back for the next pass', async () => {
    const owner = await createTeamAndOwner(tdb.db, 'Notified');
    await updateNotificationSetting(tdb.db, { teamId: owner.team.id, userId: owner.user.id }, 'transactions_created', { email: true });
    const ids: string[] = [];
    for (let i = 0; i < BURST; i++)
      ids.push(
        await notify(tdb.db, {
          teamId: owner.team.id,
          type: 'transactions_created',
          metadata: { connectionId: owner.team.id, count: i + 1, manualSync: false },
        }),
      );

    await twoPasses(startNotificationRelay(deps(), NO_POLL), {
      ids,
      runId: notificationDeliveryId,
      statuses: statusesOf('notification_deliveries', 'notification_id', ids),
      started: 'started',
    });
  }, 60_000);
});
