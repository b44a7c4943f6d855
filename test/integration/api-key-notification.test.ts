import type { ChildProcess } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../scripts/lib/ports';
import {
  apiKeyNotificationContract,
  apiKeyNotificationId,
  type ApiKeyNotificationWorkflow,
} from '../../shared/temporal/api-key-notification/contract';
import { startSmtpSink } from '../fakes/smtp-sink';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { eventually } from '../support/eventually';
import { startTestWorker, uniqueTaskQueue } from '../support/worker';

const tdb = withTestDatabase();

const input = (owner: Awaited<ReturnType<typeof createTeamAndOwner>>, keyId: string) => ({
  keyId,
  teamId: owner.team.id,
  userId: owner.user.id,
  keyName: 'CI deploy key',
  createdAt: '2026-11-22T09:30:00.000Z',
  ipAddress: '203.0.113.7',
});

describe('ApiKeyNotification on the real Temporal server', () => {
  it('emails the account holder the key name, creation time and requester IP', async () => {
    const smtp = await startSmtpSink();
    const config = testConfig({ SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('apikey') });
    const worker = await startTestWorker(config, tdb.db);
    try {
      const owner = await createTeamAndOwner(tdb.db);
      const keyId = '00000000-0000-4000-8000-000000000001';
      const result = await worker.client.workflow.execute<ApiKeyNotificationWorkflow>(apiKeyNotificationContract.workflowType, {
        taskQueue: worker.taskQueue,
        workflowId: apiKeyNotificationId(keyId),
        args: [input(owner, keyId)],
      });
      expect(result.messageId).toBeTruthy();
      const mail = await smtp.waitFor((m) => m.to.includes(owner.user.email));
      expect(mail.subject).toBe('New API key created: CI deploy key');
      expect(mail.text).toContain('Created: Sun, 22 Nov 2026 09:30:00 GMT');
      expect(mail.text).toContain('Requested from IP address: 203.0.113.7');
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it('survives the worker process being killed while it waits, and finishes once a worker is back', async () => {
    const smtpPort = await freePort(); // nothing listens yet: every send attempt fails and is retried
    const taskQueue = uniqueTaskQueue('apikey-kill');
    const owner = await createTeamAndOwner(tdb.db);
    const keyId = '00000000-0000-4000-8000-000000000002';
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: tdb.url,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    };
    const spawnWorker = () => spawnTs('worker/main.ts', { env, stdio: 'ignore' });

    const config = testConfig();
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    const client = new Client({ connection });
    let first: ChildProcess | undefined;
    let second: ChildProcess | undefined;
    const smtp = { current: undefined as Awaited<ReturnType<typeof startSmtpSink>> | undefined };
    try {
      first = spawnWorker();
      const handle = await client.workflow.start<ApiKeyNotificationWorkflow>(apiKeyNotificationContract.workflowType, {
        taskQueue,
        workflowId: apiKeyNotificationId(keyId),
        args: [input(owner, keyId)],
      });
      // Wait until the worker has really tried (and failed) to send at least once.
      await eventually(async () => {
        const d = await handle.describe();
        const pending = d.raw.pendingActivities?.[0];
        return (pending?.attempt ?? 0) >= 2;
      }, 60_000);
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false); // really gone: no wrapper left a worker behind

      smtp.current = await startSmtpSink(smtpPort);
      second = spawnWorker();
      const result = await handle.result();
      expect(result.messageId).toBeTruthy();
      const mail = await smtp.current.waitFor((m) => m.to.includes(owner.user.email));
      expect(mail.raw).toContain('CI deploy key');
      // Exactly one email: the failed attempts sent nothing, the successful one sent once.
      expect(smtp.current.messages.filter((m) => m.to.includes(owner.user.email))).toHaveLength(1);
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
      await connection.close();
      await smtp.current?.close();
    }
  }, 120_000);
});
