import type { ChildProcess } from 'node:child_process';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';
import { syncConnectionId, type SyncConnectionWorkflow } from '../../shared/temporal/sync-connection/contract';

let api: TestApi;
let bankA: BankAFake;

const tdb = withTestDatabase({
  setUp: async () => {
    bankA = await startBankAFake();
  },
  tearDown: async () => {
    await api?.stop();
    await bankA?.close();
  },
});

describe('SyncConnection survives a worker crash', () => {
  it("killing the worker in the middle of a 5,000-transaction sync ends with exactly the provider's transactions", async () => {
    const taskQueue = uniqueTaskQueue('sync-kill');
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: tdb.url,
      TEMPORAL_TASK_QUEUE: taskQueue,
      BANK_A_API_URL: bankA.url,
    };
    api = await startTestApi(tdb.db, { env: { TEMPORAL_TASK_QUEUE: taskQueue, BANK_A_API_URL: bankA.url } });
    const owner = await createTeamAndOwner(tdb.db);
    const item = bankA.addItem();
    const provider = bankA.addTransactions(item.itemId, 5000);
    bankA.slowSync(400); // ten pages of 500: about four seconds, time to strike in the middle

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const res = await api.fetch('/bank-connections', {
        method: 'POST',
        token: owner.sessionToken,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'bank-a', publicToken: item.publicToken }),
      });
      const { data } = await res.json();
      const count = async () => Number((await tdb.db('transactions').where({ teamId: owner.team.id }).count('* as n').first())!.n);
      const deadline = Date.now() + 60_000;
      let mid = 0;
      while ((mid = await count()) < 1000) {
        if (Date.now() > deadline) throw new Error('the sync never got going');
        await new Promise((r) => setTimeout(r, 50));
      }
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;
      const atKill = await count();
      expect(atKill).toBeLessThan(5000); // really in the middle
      expect(mid).toBeGreaterThan(0);

      bankA.slowSync(0);
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const client = await api.deps.temporal.client();
      const result = await client.workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(data.id)).result();
      expect(result.added + result.modified).toBeGreaterThanOrEqual(5000 - atKill);

      const rows = await tdb.db('transactions').where({ teamId: owner.team.id }).select('providerTransactionId', 'amount');
      expect(rows).toHaveLength(5000);
      const ids = new Set(rows.map((r: { providerTransactionId: string }) => r.providerTransactionId));
      expect(ids.size).toBe(5000);
      for (const t of provider) expect(ids.has(t.transaction_id)).toBe(true);
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 150_000);
});
