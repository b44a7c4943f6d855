import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import { importProgress, importTransactionsId, type ImportTransactionsWorkflow } from '../../shared/temporal/import-transactions/contract';
import { GENERATED_CSV_MAPPING, generatedCsv } from '../fixtures/statements';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi;
const STORAGE_DIR = `.data/test-storage-import-kill-${process.pid}`;
const ROWS = 100_000;

const tdb = withTestDatabase({
  tearDown: async () => {
    await api?.stop();
    await rm(path.resolve(PROJECT_ROOT, STORAGE_DIR), { recursive: true, force: true });
  },
});

const countIn = async (bankAccountId: string) =>
  (await tdb.db('transactions').where({ bankAccountId }).count<{ n: number }[]>({ n: '*' }))[0].n;

describe('ImportTransactions survives a worker killed mid-run', () => {
  it('killed while inserting, the import commits nothing; after restart it creates every row exactly once', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('import-kill'), STORAGE_DIR };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    const [account] = await tdb
      .db('bank_accounts')
      .insert({ teamId: owner.team.id, name: 'Checking', currency: 'EUR', manual: true })
      .returning<{ id: string }[]>('id');

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const body = new FormData();
      body.append('bankAccountId', account.id);
      body.append('mapping', JSON.stringify(GENERATED_CSV_MAPPING));
      body.append('file', new Blob([generatedCsv(ROWS)]), 'statement.csv');
      const res = await api.fetch('/transactions/import', { method: 'POST', token: owner.sessionToken, body });
      expect(res.status).toBe(202);
      const { id } = (await res.json()).data as { id: string };

      const client = await api.deps.temporal.client();
      const handle = client.workflow.getHandle<ImportTransactionsWorkflow>(importTransactionsId(id));
      // The single pass has read 10,000 rows (its first heartbeat), sent its first batches, and has not committed.
      await eventually(
        async () => {
          const pending = (await handle.describe()).raw.pendingActivities?.[0];
          return pending?.activityType?.name === 'importRows' && !!pending.heartbeatDetails;
        },
        90_000,
        'the insert to be under way',
      );
      expect(await handle.query(importProgress)).toEqual({ stage: 'importing', rowsRead: 0, created: 0, skipped: 0, matched: 0 });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;
      // The killed worker's transaction dies with its connection: nothing of the file is in the account.
      await eventually(async () => (await countIn(account.id)) === 0, 15_000, 'the open insert to be rolled back');
      expect(await tdb.db('imports').where({ id }).first('status')).toEqual({ status: 'importing' });

      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      expect(await handle.result()).toEqual({ stage: 'completed', rowsRead: ROWS, created: ROWS, skipped: 0, matched: 0 });
      expect(await countIn(account.id)).toBe(ROWS);
      expect(await tdb.db('transactions').where({ bankAccountId: account.id }).countDistinct({ n: 'import_hash' })).toEqual([{ n: ROWS }]);
      const stored = (await (await api.fetch(`/transactions/imports/${id}`, { token: owner.sessionToken })).json()).data as {
        status: string;
        progress: unknown;
      };
      expect(stored).toMatchObject({ status: 'completed', progress: { rowsRead: ROWS, created: ROWS, skipped: 0 } });
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 240_000);
});
