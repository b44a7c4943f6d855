import type { ChildProcess } from 'node:child_process';
import { applyRulesProgress, type ApplyRulesProgress } from '../../shared/temporal/apply-rules/contract';
import { postJsonAs, startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner, insertTransactions } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi | undefined;

const tdb = withTestDatabase({
  tearDown: async () => {
    await api?.stop();
  },
});

const ROWS = 40_000;

describe('ApplyRules survives a worker killed mid-run', () => {
  it('killed between batches, the next worker goes on: every matching row changed once, each announced once, the counts whole', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('apply-rules-kill') };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db, 'Books');
    const teamId = owner.team.id;
    await tdb.db('transaction_categories').insert({ teamId, name: 'Even', slug: 'even' });
    await insertTransactions(tdb.db, teamId, ROWS);
    // Names are "Merchant <i>": the rule matches the even ones.
    const post = postJsonAs(api, owner.sessionToken);
    const rule = (
      await post('/transaction-rules', {
        name: 'Even merchants',
        conditions: { any: [{ all: [{ field: 'name', operator: 'regex', value: '[02468]$' }] }] },
        actions: { categorySlug: 'even', note: 'even' },
      })
    ).data;

    const workers: ChildProcess[] = [];
    const startWorker = () => workers[workers.push(spawnTs('worker/main.ts', { env, stdio: 'ignore' })) - 1];
    try {
      const first = startWorker();
      const run = (await post(`/transaction-rules/${rule.id}/apply`, {})).data;
      const runRow = () => tdb.db('transaction_rule_runs').where({ id: run.id }).first();
      // Killed once some batches committed and before the last.
      await eventually(async () => (await runRow()).scanned > 0, 60_000, 'the first batches');
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      const atKill = await runRow();
      expect(atKill.scanned).toBeLessThan(ROWS);
      expect(atKill.status).toBe('running');

      startWorker();
      const handle = (await api.deps.temporal.client()).workflow.getHandle(run.workflowId as string);
      const result: ApplyRulesProgress = await handle.result();
      const even = ROWS / 2;
      expect(result).toMatchObject({ stage: 'completed', scanned: ROWS, matched: even, changed: even });
      expect(await handle.query(applyRulesProgress)).toEqual(result);
      expect(await runRow()).toMatchObject({ status: 'completed', scanned: ROWS, matched: even, changed: even, error: null });

      const counts = await tdb
        .db('transactions')
        .where({ teamId })
        .select(tdb.db.raw(`count(*) filter (where category_slug = 'even' and note = 'even')::int as changed, count(*)::int as total`))
        .first();
      expect(counts).toEqual({ changed: even, total: ROWS });
      // Nothing applied twice: one transaction.updated per changed row, and no row announced twice.
      const events = await tdb
        .db('events')
        .where({ teamId, type: 'transaction.updated' })
        .select(tdb.db.raw(`count(*)::int as n, count(distinct (payload::jsonb -> 'data' ->> 'id'))::int as rows`))
        .first();
      expect(events).toEqual({ n: even, rows: even });
    } finally {
      for (const w of workers) await killHard(w);
    }
  }, 240_000);
});
