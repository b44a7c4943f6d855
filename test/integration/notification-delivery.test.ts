import type { ChildProcess } from 'node:child_process';
import type { WorkflowHandle } from '@temporalio/client';
import { startNotificationRelay } from '../../api/outbox/notification-relay';
import type { RepeatingPass } from '../../api/outbox/repeating-pass';
import { notificationActivities } from '../../activities/notifications/deliver';
import { notify } from '../../shared/domain/notifications/service';
import { updateNotificationSetting } from '../../shared/domain/notifications/settings';
import {
  notificationDeliveryId,
  notificationDeliveryProgress,
  type NotificationDeliveryWorkflow,
} from '../../shared/temporal/notification-delivery/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { startTestApi, testConfig, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { startTestWorker, uniqueTaskQueue } from '../support/worker';

/**
 * NotificationDelivery end to end: notify() queues the emails members asked for, the API process's
 * relay starts one workflow per notification, the worker mails each recipient once.
 */
let smtp: SmtpSink;
const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
  },
  tearDown: async () => {
    await smtp?.close();
  },
});

type Member = Awaited<ReturnType<typeof createTeamAndOwner>>;

/** A team of three: the owner and Bob want new transactions by email, Carol only in the app. */
async function teamOfThree() {
  const owner = await createTeamAndOwner(tdb.db, 'Mailers');
  const bob = await createTeamAndOwner(tdb.db, 'Bob’s');
  const carol = await createTeamAndOwner(tdb.db, 'Carol’s');
  for (const m of [bob, carol]) await tdb.db('team_members').insert({ teamId: owner.team.id, userId: m.user.id, role: 'member' });
  for (const m of [owner, bob]) {
    await updateNotificationSetting(tdb.db, { teamId: owner.team.id, userId: m.user.id }, 'transactions_created', { email: true });
  }
  return { owner, bob, carol };
}

const mailsTo = (m: Member) => smtp.messages.filter((mail) => mail.to.includes(m.user.email));

async function handleOnceStarted(api: TestApi, notificationId: string): Promise<WorkflowHandle<NotificationDeliveryWorkflow>> {
  const handle = (await api.deps.temporal.client()).workflow.getHandle<NotificationDeliveryWorkflow>(
    notificationDeliveryId(notificationId),
  );
  await eventually(
    () =>
      handle.describe().then(
        () => true,
        () => false,
      ),
    30_000,
    'the relay to start the delivery',
  );
  return handle;
}

describe('NotificationDelivery', () => {
  it('mails each member who asked for the type, once, and marks the outbox rows sent', async () => {
    const taskQueue = uniqueTaskQueue('notify-mail');
    const env = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: taskQueue, PUBLIC_URL: 'https://finops.example' };
    const worker = await startTestWorker(testConfig(env), tdb.db);
    const api = await startTestApi(tdb.db, { env });
    let relay: RepeatingPass | undefined;
    try {
      const { owner, bob, carol } = await teamOfThree();
      const id = await notify(tdb.db, {
        teamId: owner.team.id,
        type: 'transactions_created',
        metadata: { connectionId: owner.team.id, count: 12, manualSync: false },
      });
      relay = startNotificationRelay(api.deps, { intervalMs: 100 });
      const handle = await handleOnceStarted(api, id);
      expect(await handle.result()).toEqual({ stage: 'done', total: 2, sent: 2, skipped: 0, failed: 0 });
      expect(await handle.query(notificationDeliveryProgress)).toMatchObject({ stage: 'done', sent: 2 });

      expect(mailsTo(owner)).toHaveLength(1);
      expect(mailsTo(bob)).toHaveLength(1);
      expect(mailsTo(carol)).toHaveLength(0);
      expect(mailsTo(bob)[0].subject).toBe('Mailers: 12 new transactions from the bank');
      expect(mailsTo(bob)[0].text).toContain('A bank sync brought 12 new transactions.');
      expect(mailsTo(bob)[0].raw).toMatch(/Message-ID:\s*<notification-[0-9a-f-]+@finops\.example>/i);
      const rows = await tdb.db('notification_deliveries').where({ notificationId: id });
      expect(rows.map((r: { status: string; messageId: string | null }) => [r.status, Boolean(r.messageId)])).toEqual([
        ['sent', true],
        ['sent', true],
      ]);

      // More passes find nothing due; an attempt repeated after its mail went out sends nothing.
      expect(await relay.runOnce()).toBe(0);
      const activities = notificationActivities(worker.deps);
      for (const row of rows) expect(await activities.sendNotificationEmail({ deliveryId: row.id as string })).toBe('skipped');
      expect(smtp.messages.filter((m) => m.subject.startsWith('Mailers:'))).toHaveLength(2);
    } finally {
      await relay?.stop();
      await api.stop();
      await worker.stop();
    }
  }, 60_000);

  it('killed while a mailbox refuses for a while, it mails the rest once each after restart: nothing lost, nothing twice', async () => {
    const taskQueue = uniqueTaskQueue('notify-kill');
    const shared = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: taskQueue };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    const api = await startTestApi(tdb.db, { env: shared });
    let relay: RepeatingPass | undefined;
    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const { owner, bob } = await teamOfThree();
      smtp.refuse.add(bob.user.email);
      const id = await notify(tdb.db, {
        teamId: owner.team.id,
        type: 'transactions_created',
        metadata: { connectionId: owner.team.id, count: 3, manualSync: true },
      });
      relay = startNotificationRelay(api.deps, { intervalMs: 100 });
      const handle = await handleOnceStarted(api, id);
      // One mail is out; the other is being retried (at least twice) when the worker dies.
      await eventually(
        async () => mailsTo(owner).length === 1 && ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'one mail sent and the other retried',
      );
      // What an operator sees in the Temporal UI while it waits (a query needs a live worker).
      expect(await handle.query(notificationDeliveryProgress)).toMatchObject({ stage: 'sending', total: 2, sent: 1 });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;
      expect((await handle.describe()).status.name).toBe('RUNNING');

      smtp.refuse.delete(bob.user.email);
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      expect(await handle.result()).toEqual({ stage: 'done', total: 2, sent: 2, skipped: 0, failed: 0 });
      expect(mailsTo(owner)).toHaveLength(1);
      expect(mailsTo(bob)).toHaveLength(1);
      const statuses = await tdb.db('notification_deliveries').where({ notificationId: id }).pluck('status');
      expect(statuses).toEqual(['sent', 'sent']);
      const bobs = await tdb.db('notification_deliveries').where({ notificationId: id, userId: bob.user.id }).first();
      expect(bobs.attempts).toBeGreaterThanOrEqual(2); // the refused attempts were real tries
    } finally {
      await relay?.stop();
      if (first) await killHard(first);
      if (second) await killHard(second);
      await api.stop();
    }
  }, 150_000);
});
