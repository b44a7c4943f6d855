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
      while ((await count()) < 1000) {
        if (Date.now() > deadline) throw new Error('the sync never got going');
        await new Promise((r) => setTimeout(r, 50));
      }
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;
      // Each page is stored in one transaction with the cursor after it, so this is where a retry resumes.
      const atKill = await count();
      expect(atKill).toBeLessThan(5000); // really in the middle
      expect(atKill % 500).toBe(0);

      bankA.slowSync(0);
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const client = await api.deps.temporal.client();
      const result = await client.workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(data.id)).result();
      // The retry adds exactly what the first attempt had not stored: a page lost would leave rows out, a
      // page stored twice would come back as modified rows.
      expect(result).toEqual({ added: 5000 - atKill, modified: 0, removed: 0, passes: 1 });

      const rows = await tdb
        .db('transactions')
        .where({ teamId: owner.team.id })
        .select<{ providerTransactionId: string; amount: string; date: string; currency: string }[]>(
          'providerTransactionId',
          'amount',
          tdb.db.raw("to_char(date, 'YYYY-MM-DD') as date"),
          'currency',
        );
      const stored = rows.map((r) => `${r.providerTransactionId} ${Number(r.amount)} ${r.currency} ${r.date}`).sort();
      // bank-a's positive amount is money out, an expense (negative) here.
      const expected = provider.map((t) => `${t.transaction_id} ${-t.amount} ${t.iso_currency_code} ${t.date}`).sort();
      expect(stored).toHaveLength(5000);
      expect(stored).toEqual(expected);
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 150_000);
});
