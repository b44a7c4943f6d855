import type { ChildProcess } from 'node:child_process';
import { teamDeletionId, teamDeletionProgress, type TeamDeletionProgress } from '../../shared/temporal/team-deletion/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertTransactions } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let smtp: SmtpSink;
let api: TestApi | undefined;
const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
  },
  tearDown: async () => {
    await api?.stop();
    await smtp.close();
  },
});

describe('TeamDeletion survives a worker crash', () => {
  it('killed in the middle of deleting 4,000 transactions in batches of 20, it ends with the team and all its rows gone, and one email', async () => {
    const taskQueue = uniqueTaskQueue('team-deletion-kill');
    const shared = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: taskQueue, TEAM_DELETION_BATCH_SIZE: '20' };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db, 'Big');
    const neighbour = await createTeamAndOwner(tdb.db, 'Neighbour');
    await insertTransactions(tdb.db, owner.team.id, 4000);
    await insertTransactions(tdb.db, neighbour.team.id, 10);
    const count = async () => Number((await tdb.db('transactions').where({ teamId: owner.team.id }).count('* as n').first())!.n);

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const res = await api.fetch(`/teams/${owner.team.id}`, { method: 'DELETE', token: owner.sessionToken });
      expect(res.status).toBe(202);
      const deadline = Date.now() + 60_000;
      while ((await count()) > 3000) {
        if (Date.now() > deadline) throw new Error('the deletion never got going');
        await new Promise((r) => setTimeout(r, 20));
      }
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;
      const atKill = await count();
      expect(atKill).toBeGreaterThan(0); // really in the middle
      const handle = (await api.deps.temporal.client()).workflow.getHandle(teamDeletionId(owner.team.id));
      expect((await handle.describe()).status.name).toBe('RUNNING'); // and waits for a worker

      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const result: TeamDeletionProgress = await handle.result();
      expect(result.stage).toBe('done');
      expect(result.tables.every((t) => t.done)).toBe(true);
      expect(await handle.query(teamDeletionProgress)).toEqual(result); // the query answers after the end too
      expect(await count()).toBe(0);
      expect(await tdb.db('teams').where({ id: owner.team.id })).toEqual([]);
      expect(await tdb.db('team_members').where({ teamId: owner.team.id })).toEqual([]);
      expect(await tdb.db('transactions').where({ teamId: neighbour.team.id })).toHaveLength(10);
      await smtp.waitFor((m) => m.to.includes(owner.user.email));
      expect(smtp.messages.filter((m) => m.to.includes(owner.user.email))).toHaveLength(1);
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 150_000);
});
