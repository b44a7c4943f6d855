import { armInsertFault, type InsertFault } from '../support/insert-fault';
import type { ChildProcess } from 'node:child_process';
import {
  weeklyInsightId,
  weeklyInsightsContract,
  weeklyInsightsProgress,
  type WeeklyInsightsWorkflow,
} from '../../shared/temporal/weekly-insights/contract';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi;
let announceFault: InsertFault;

const tdb = withTestDatabase({
  setUp: async () => {
    // Writing the `insight_ready` notice fails, so the announcing step keeps being retried until the fault clears.
    announceFault = await armInsertFault(tdb.db, 'insight_announce', {
      table: 'notifications',
      when: `new.type = 'insight_ready'`,
      message: 'notification store unavailable (test fault)',
    });
  },
  tearDown: async () => {
    await api?.stop();
  },
});

describe('WeeklyInsights survives a worker killed mid-run', () => {
  it('killed while announcing, after restart stores the week once and announces it once', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('insights-kill') };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    const teamId = owner.team.id;
    await tdb.db('transactions').insert({ teamId, date: '2026-11-18', name: 'Client', amount: 2500, currency: 'EUR' });

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      // A run for one week, as an operator starts it from the Temporal UI.
      const handle = await (
        await api.deps.temporal.client()
      ).workflow.start<WeeklyInsightsWorkflow>(weeklyInsightsContract.workflowType, {
        taskQueue: shared.TEMPORAL_TASK_QUEUE,
        workflowId: weeklyInsightId(teamId, '2026-11-16'),
        args: [{ teamId, weekStart: '2026-11-16' }],
      });
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'announcing to be retried',
      );
      expect(await handle.query(weeklyInsightsProgress)).toMatchObject({ stage: 'announcing', weekStart: '2026-11-16', announced: false });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;

      await announceFault.clear();
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const result = await handle.result();
      expect(result).toMatchObject({ stage: 'completed', weekStart: '2026-11-16', announced: true });

      const insights = await tdb.db('insights').where({ teamId });
      expect(insights).toHaveLength(1);
      expect(insights[0]).toMatchObject({ id: result.insightId, periodStart: '2026-11-16' });
      expect(insights[0].summary).toMatchObject({ income: 2500 });
      expect(await tdb.db('notifications').where({ teamId, type: 'insight_ready' })).toHaveLength(1);
      // The summary was computed once: the restarted worker replayed that step, it did not run it again.
      const computed = (await handle.fetchHistory()).events?.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'computeWeeklyInsight',
      );
      expect(computed).toHaveLength(1);
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 120_000);
});
