import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { signSessionToken } from '../../api/auth/session-token';
import { invitationStage, invitationWorkflowId, type InvitationResult } from '../../shared/temporal/invitation/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { startTestApi, testConfig, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { startTestWorker, uniqueTaskQueue, untilWorkerPolls } from '../support/worker';

let smtp: SmtpSink;
const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
  },
  tearDown: () => smtp.close(),
});

const invite = async (api: TestApi, owner: Awaited<ReturnType<typeof createTeamAndOwner>>, email: string) => {
  const res = await api.fetch(`/teams/${owner.team.id}/invitations`, {
    method: 'POST',
    token: owner.sessionToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).data.id as string;
};
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

describe('Invitation on the real Temporal server', () => {
  it('reminds once halfway through a short lifetime, then expires; an expired invitation cannot be accepted', async () => {
    const env = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('invite-expiry'), INVITATION_TTL: '8s' };
    const api = await startTestApi(tdb.db, { env });
    const worker = await startTestWorker(testConfig(env), tdb.db);
    try {
      const owner = await createTeamAndOwner(tdb.db, 'Expiring');
      const invitee = await createTeamAndOwner(tdb.db, 'Invitee');
      const id = await invite(api, owner, invitee.user.email);
      const handle = worker.client.workflow.getHandle(invitationWorkflowId(id));
      await smtp.waitFor((m) => m.to.includes(invitee.user.email) && m.subject.startsWith('Olive Owner invited you'));
      // The mail can land a moment before its activity reports back.
      let stage = await handle.query(invitationStage);
      for (let i = 0; stage === 'sending' && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 50));
        stage = await handle.query(invitationStage);
      }
      expect(stage).toBe('waiting');

      const reminder = await smtp.waitFor((m) => m.to.includes(invitee.user.email) && m.subject.startsWith('Reminder'));
      expect(reminder.subject).toBe('Reminder: your invitation to join Expiring expires soon');
      expect(await handle.result()).toEqual({ outcome: 'expired', reminded: true });
      expect(mailsTo(invitee.user.email)).toHaveLength(2);
      expect(await tdb.db('team_invitations').where({ id }).first()).toMatchObject({ status: 'expired' });

      const accept = await api.fetch(`/users/me/invitations/${id}/accept`, { method: 'POST', token: invitee.sessionToken });
      expect(accept.status).toBe(409);
      expect(await accept.json()).toEqual({ error: 'Conflict', description: 'This invitation has expired; ask for a new one' });
      expect(await tdb.db('team_members').where({ teamId: owner.team.id, userId: invitee.user.id })).toEqual([]);
    } finally {
      await worker.stop();
      await api.stop();
    }
  });

  it('loses nothing and sends nothing twice when the worker process is killed while it waits', async () => {
    const taskQueue = uniqueTaskQueue('invite-kill');
    // The reminder falls due halfway through: 6 s after the invitation, time enough to kill the worker first.
    const shared = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: taskQueue, INVITATION_TTL: '12s' };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    const api = await startTestApi(tdb.db, { env: shared });
    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const owner = await createTeamAndOwner(tdb.db, 'Durable');
      const email = `late-${randomBytes(4).toString('hex')}@example.com`;
      // A worker process is slow to start on a loaded machine; the reminder's timer starts with the
      // invitation, so invite only once the worker polls, or the reminder is due before the kill.
      await untilWorkerPolls(await api.deps.temporal.client(), taskQueue);
      const id = await invite(api, owner, email);
      const invited = Date.now();
      await smtp.waitFor((m) => m.to.includes(email), 60_000);
      const handle = (await api.deps.temporal.client()).workflow.getHandle(invitationWorkflowId(id));
      for (let i = 0; (await handle.query(invitationStage)) !== 'waiting'; i++) {
        if (i > 100) throw new Error('the run never started waiting');
        await new Promise((r) => setTimeout(r, 100));
      }
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;
      expect(mailsTo(email)).toHaveLength(1);

      // The reminder falls due (at 6 s) while no worker runs; it must still go out, once.
      await new Promise((r) => setTimeout(r, Math.max(0, invited + 7000 - Date.now())));
      expect(mailsTo(email)).toHaveLength(1);
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const result: InvitationResult = await handle.result();
      expect(result).toEqual({ outcome: 'expired', reminded: true });
      expect(mailsTo(email).map((m) => m.subject)).toEqual([
        'Olive Owner invited you to join Durable',
        'Reminder: your invitation to join Durable expires soon',
      ]);

      // And a decision made while no worker runs is applied once: accept another invitation during an outage.
      const invitee = await createTeamAndOwner(tdb.db, 'Busy');
      const next = await invite(api, owner, invitee.user.email);
      await smtp.waitFor((m) => m.to.includes(invitee.user.email), 60_000);
      await killHard(second);
      second = undefined;
      const session = await signSessionToken(testConfig().AUTH_JWT_SECRET!, invitee.user.id);
      for (let i = 0; i < 2; i++) {
        expect((await api.fetch(`/users/me/invitations/${next}/accept`, { method: 'POST', token: session })).status).toBe(200);
      }
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const accepted = (await api.deps.temporal.client()).workflow.getHandle(invitationWorkflowId(next));
      expect(await accepted.result()).toEqual({ outcome: 'accepted', reminded: false });
      expect(await tdb.db('team_members').where({ teamId: owner.team.id, userId: invitee.user.id })).toHaveLength(1);
      expect(mailsTo(invitee.user.email)).toHaveLength(1);
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
      await api.stop();
    }
  }, 120_000);
});
