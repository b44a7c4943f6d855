import type { ChildProcess } from 'node:child_process';
import { invoiceLifecycleId, invoiceLifecycleProgress } from '../../shared/temporal/invoice-lifecycle/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { postJsonAs, startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue, untilWorkerPolls } from '../support/worker';

let api: TestApi;
let smtp: SmtpSink;

const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
  },
  tearDown: async () => {
    await api?.stop();
    await smtp?.close();
  },
});

describe('InvoiceLifecycle survives a worker killed mid-run', () => {
  it('killed while the scheduled email is being retried, after restart the invoice is issued once and emailed once', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('invoice-kill'), SMTP_URL: smtp.url, PUBLIC_URL: 'https://finops.example' };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    const post = postJsonAs(api, owner.sessionToken);
    const mailbox = 'payables@customer.example';
    const customer = (await post('/customers', { name: 'Customer', billingEmail: mailbox })).data;
    const invoice = (await post('/invoices', { currency: 'EUR', customerId: customer.id, lineItems: [{ name: 'Work', price: 500 }] })).data;
    // The customer's mail server answers "try again later" until the fault clears.
    smtp.refuse.add(mailbox);

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const sendAt = new Date(Date.now() + 1_500).toISOString();
      expect((await post(`/invoices/${invoice.id}/schedule`, { sendAt })).data.status).toBe('scheduled');
      const handle = (await api.deps.temporal.client()).workflow.getHandle(invoiceLifecycleId(invoice.id));
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'the invoice email to be retried',
      );
      // Issued at the scheduled time, and the email not yet through.
      expect(await handle.query(invoiceLifecycleProgress)).toMatchObject({ stage: 'sending', status: 'unpaid', emailsSent: 0 });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;

      smtp.refuse.delete(mailbox);
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      await smtp.waitFor((m) => m.to.includes(mailbox), 60_000);
      await eventually(
        async () => (await handle.query(invoiceLifecycleProgress)).stage === 'awaiting_payment',
        30_000,
        'waiting for payment',
      );

      expect(smtp.messages.filter((m) => m.to.includes(mailbox))).toHaveLength(1);
      expect(await tdb.db('invoice_deliveries').where({ invoiceId: invoice.id })).toEqual([
        expect.objectContaining({ kind: 'invoice', sequence: 0, sentAt: expect.any(Date) }),
      ]);
      expect(await tdb.db('invoices').where({ id: invoice.id }).first()).toMatchObject({ status: 'unpaid', emailDelivery: true });
      // The scheduled send (the status change) ran once: the restarted worker replayed it, it did not run it again.
      const steps = (await handle.fetchHistory()).events?.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'performInvoiceStep',
      );
      expect(steps).toHaveLength(2); // send, then email
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 120_000);

  it('killed while waiting for the scheduled time and while the email is retried, sends the invoice and its reminder once each', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('invoice-kill-wait'), SMTP_URL: smtp.url };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    await api.stop();
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db, 'Waiting');
    await tdb
      .db('teams')
      .where({ id: owner.team.id })
      .update({ invoiceReminderDays: [1] });
    const post = postJsonAs(api, owner.sessionToken);
    const mailbox = 'late@customer.example';
    const customer = (await post('/customers', { name: 'Late payer', billingEmail: mailbox, invoiceReminders: true })).data;
    // Due long ago: once sent, it is overdue at once and its one reminder is due.
    const invoice = (
      await post('/invoices', {
        currency: 'EUR',
        customerId: customer.id,
        issueDate: '2026-01-01',
        dueDate: '2026-01-15',
        lineItems: [{ name: 'Work', price: 80 }],
      })
    ).data;

    let worker: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    try {
      // The timer must still be running when the worker is killed: schedule only once the worker
      // polls (on a loaded CI a worker can be slow to start, and the send time would have passed by then).
      await untilWorkerPolls(await api.deps.temporal.client(), shared.TEMPORAL_TASK_QUEUE);
      const sendAt = new Date(Date.now() + 8_000);
      await post(`/invoices/${invoice.id}/schedule`, { sendAt: sendAt.toISOString() });
      const handle = (await api.deps.temporal.client()).workflow.getHandle(invoiceLifecycleId(invoice.id));
      await eventually(async () => (await handle.query(invoiceLifecycleProgress)).stage === 'scheduled', 30_000, 'waiting for the time');
      // Killed while the timer runs; nothing is sent while no worker runs.
      await killHard(worker);
      worker = undefined;
      const mine = () => smtp.messages.filter((m) => m.to.includes(mailbox));
      await new Promise((r) => setTimeout(r, Math.max(0, sendAt.getTime() - Date.now()) + 500));
      expect(mine()).toHaveLength(0);

      // The reminder's mailbox refuses for now: the reminder is retried, and the worker is killed again.
      smtp.refuse.add(mailbox);
      worker = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      await eventually(async () => (await handle.query(invoiceLifecycleProgress)).nextAction === 'email', 60_000, 'the invoice email');
      await eventually(async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2, 60_000, 'the email retried');
      await killHard(worker);
      worker = undefined;
      smtp.refuse.delete(mailbox);
      worker = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      await eventually(() => Promise.resolve(mine().length >= 2), 60_000, 'the invoice and its reminder');
      await eventually(
        async () => {
          const p = await handle.query(invoiceLifecycleProgress);
          return p.stage === 'overdue' && p.nextAction === 'recheck';
        },
        30_000,
        'nothing left to send',
      );
      expect(mine().map((m) => m.subject.split(' ')[0])).toEqual(['Invoice', 'Reminder:']);
      expect(await tdb.db('invoice_deliveries').where({ invoiceId: invoice.id }).orderBy('kind').select('kind', 'sequence')).toEqual([
        { kind: 'invoice', sequence: 0 },
        { kind: 'reminder', sequence: 1 },
      ]);
      expect(await tdb.db('notifications').where({ teamId: owner.team.id, type: 'invoice_overdue' })).toHaveLength(1);
    } finally {
      if (worker) await killHard(worker);
    }
  }, 300_000);
});
