/**
 * SyncConnection end to end: 10,000 new provider transactions, from the sync request to
 * the finished workflow, on a real Temporal dev server and worker against the bank-a fake.
 *
 *   npx tsx bench/sync.ts            (DATABASE_URL or an embedded PostgreSQL)
 *   PROVIDER_MS=50 npx tsx bench/sync.ts   (each page answered after 50 ms, as a provider over the internet)
 */
import { Transaction } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { benchDatabase, forgetTeam } from './lib/database';
import { reportFigure } from './lib/figures';
import { runMain } from './lib/run-main';
import { startSyncStack } from './lib/sync-stack';

const N = Number(process.env.TRANSACTIONS ?? 100_000);
/** The fake answers on loopback at once; a real provider takes tens of milliseconds a page. */
const PROVIDER_MS = Number(process.env.PROVIDER_MS ?? 0);

async function main() {
  const bench = await benchDatabase('finops_bench_sync');
  const stack = await startSyncStack(bench, 'bench-sync');
  if (PROVIDER_MS) stack.bankA.slowSync(PROVIDER_MS);
  try {
    await stack.whileWorking(async () => {
      const { team } = await createUserWithTeam(bench.db, { email: `bench-${Date.now()}@example.com`, teamName: 'bench-sync' });
      const conn = await stack.connectItem(team.id, N);
      const { result, seconds } = await stack.sync(conn);
      const stored = await Transaction.query(bench.db).where({ teamId: team.id }).resultSize();
      console.log(
        `\nSyncConnection: ${result.added.toLocaleString()} new transactions (${stored} stored) in ${seconds.toFixed(2)} s, ${(result.added / seconds).toFixed(0)} transactions/s  (target: 100,000 in under 15 s)`,
      );
      reportFigure({
        name: `SyncConnection, ${N.toLocaleString()} new transactions${PROVIDER_MS ? `, provider answering in ${PROVIDER_MS} ms` : ''}`,
        value: seconds,
        unit: 's',
        budget: { on: 'value', atMost: (15 * N) / 100_000 },
      });
      await forgetTeam(bench.db, team.id);
    });
  } finally {
    await stack.close();
    await bench.close();
  }
}

runMain(main);
