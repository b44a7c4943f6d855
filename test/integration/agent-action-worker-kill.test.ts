import type { ChildProcess } from 'node:child_process';
import { proposeAgentAction } from '../../shared/domain/agent-actions/service';
import { agentActionStage, agentActionWorkflowId } from '../../shared/temporal/agent-action/contract';
import { armInsertFault, type InsertFault } from '../support/insert-fault';
import { sendJson, startTestApi, statusAndBody, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi | undefined;

const tdb = withTestDatabase({
  tearDown: async () => {
    await api?.stop();
  },
});

describe('AgentAction survives workers killed mid-run', () => {
  it('killed while it waits for approval and again while the approval is applied, it applies the change exactly once', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('agent-kill') };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db, 'Agents');
    const teamId = owner.team.id;
    await tdb.db('transaction_categories').insert({ teamId, name: 'Software', slug: 'software' });
    const ids = (
      await tdb
        .db('transactions')
        .insert([1, 2, 3, 4].map((i) => ({ teamId, date: `2026-10-0${i}`, name: `Tool ${i}`, amount: -i, currency: 'EUR' })))
        .returning('id')
    ).map((r: { id: string }) => r.id);
    const [key] = await tdb
      .db('api_keys')
      .insert({ teamId, userId: owner.user.id, name: 'agent', keyHash: 'h'.repeat(64), keyHint: 'abcd', scopes: ['transactions.write'] })
      .returning('id');

    const workers: ChildProcess[] = [];
    const startWorker = () => workers[workers.push(spawnTs('worker/main.ts', { env, stdio: 'ignore' })) - 1];
    const kill = async (w: ChildProcess) => {
      await killHard(w);
      expect(isAlive(w.pid!)).toBe(false);
    };
    try {
      const first = startWorker();
      const proposal = await proposeAgentAction(
        { db: tdb.db, temporal: api.deps.temporal, config: { LLM_API_URL: undefined }, expiryMs: 3_600_000, warn: () => {} },
        {
          principal: {
            kind: 'api_key',
            apiKeyId: (key as { id: string }).id,
            userId: owner.user.id,
            teamId,
            scopes: ['transactions.write'],
          },
          via: 'mcp',
        },
        { tool: 'categorize_transactions', operation: 'transactions.bulkUpdate', input: { ids, set: { categorySlug: 'software' } } },
      );
      expect(proposal).toMatchObject({ status: 'pending_approval', preview: { count: 4 } });
      const handle = (await api.deps.temporal.client()).workflow.getHandle(agentActionWorkflowId(proposal.actionId));

      // 1. Killed while it waits: a new worker picks the wait up where it was.
      await eventually(async () => (await handle.query(agentActionStage)).stage === 'awaiting_approval', 60_000, 'waiting for approval');
      await kill(first);
      const second = startWorker();
      await eventually(
        async () => (await handle.query(agentActionStage)).stage === 'awaiting_approval',
        60_000,
        'the wait on a new worker',
      );

      // 2. Approved while applying fails (rolled back each time): killed while it is retried.
      // The feed refuses the bulk edit's events, so applying keeps being retried (rolled back each time) until it clears.
      const eventFault: InsertFault = await armInsertFault(tdb.db, 'agent_apply', {
        table: 'events',
        message: 'event feed unavailable (test fault)',
      });
      const approval = sendJson(api, 'POST', `/agent-actions/${proposal.actionId}/approve`, owner.sessionToken);
      const pendingAttempt = async () =>
        (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'applyAgentAction')?.attempt ?? 0;
      await eventually(async () => (await pendingAttempt()) >= 2, 60_000, 'applying to be retried');
      expect(await handle.query(agentActionStage)).toMatchObject({ stage: 'applying' });
      await kill(second);
      expect(await tdb.db('transactions').whereIn('id', ids).whereNotNull('categorySlug')).toEqual([]);

      // 3. The feed back: a third worker applies it, and the approver gets the result.
      await eventFault.clear();
      startWorker();
      const approved = await statusAndBody(await approval);
      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({ result: { matched: 4, changed: 4 }, action: { status: 'applied' } });
      expect(await handle.result()).toEqual({ stage: 'applied' });

      const rows = await tdb.db('transactions').whereIn('id', ids).select<{ categorySlug: string }[]>('categorySlug');
      expect(rows.map((r) => r.categorySlug)).toEqual(['software', 'software', 'software', 'software']);
      expect(await tdb.db('events').where({ teamId, type: 'transaction.updated' })).toHaveLength(4);
      expect(await tdb.db('agent_actions').where({ id: proposal.actionId }).first()).toMatchObject({
        status: 'applied',
        decidedVia: 'api',
        decidedByUserId: owner.user.id,
      });
      expect(await tdb.db('notifications').where({ teamId, type: 'agent_action_proposed' })).toHaveLength(1);
    } finally {
      for (const w of workers) await killHard(w);
    }
  }, 240_000);
});
