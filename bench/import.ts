/**
 * Statement import end to end (goal: a CSV imports at over 20,000 rows/s): a 100,000-row CSV uploaded
 * to the real gateway (multipart, streamed to disk), the ImportTransactions workflow on a real
 * Temporal dev server and worker, every row validated and then inserted in one transaction. Timed
 * from the first byte of the upload to the finished workflow. Seeds nothing but a team and an
 * account; each run imports into a fresh account, so every row is new, and deletes its team after.
 *
 *   npx tsx bench/import.ts            (DATABASE_URL or an embedded PostgreSQL; ROWS to change the size)
 */
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { tsToMs } from '@temporalio/common/lib/time';
import { NativeConnection } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivityDeps } from '../activities';
import { createApp } from '../api/app';
import { createApiDeps } from '../api/deps';
import { signSessionToken } from '../api/auth/session-token';
import { loadConfig } from '../shared/config';
import { BankAccount, TransactionImport } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { createLogger } from '../shared/logger';
import { PROJECT_ROOT } from '../shared/paths';
import { createTemporalGateway } from '../shared/temporal/client';
import { importTransactionsId, type ImportTransactionsWorkflow } from '../shared/temporal/import-transactions/contract';
import { localDevServer } from '../scripts/lib/temporal-cli';
import { createWorker } from '../worker/create-worker';
import { GENERATED_CSV_MAPPING, generatedCsv } from '../test/fixtures/statements';
import { benchDatabase, forgetTeam } from './lib/database';
import { reportFigure } from './lib/figures';

const ROWS = Number(process.env.ROWS ?? 100_000);
const TARGET_ROWS_PER_SECOND = 20_000;

async function main() {
  const bench = await benchDatabase('finops_bench_import');
  const env = await TestWorkflowEnvironment.createLocal({
    server: localDevServer(),
  });
  const storageDir = `.data/bench-import-${process.pid}`;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_TASK_QUEUE: 'bench-import',
    STORAGE_DIR: storageDir,
  });
  const connection = await NativeConnection.connect({ address: env.address });
  const worker = await createWorker({
    connection,
    namespace: 'default',
    taskQueue: 'bench-import',
    deps: createActivityDeps(config, bench.db),
  });
  const temporal = createTemporalGateway({ address: env.address, namespace: 'default', taskQueue: 'bench-import' });
  const apiDeps = createApiDeps({ config, db: bench.db, temporal, logger: createLogger(config) });
  const server: Server = await new Promise((resolve) => {
    const s = createApp(apiDeps).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  try {
    await worker.runUntil(async () => {
      const { team, user } = await createUserWithTeam(bench.db, { email: `bench-${Date.now()}@example.com`, teamName: 'bench-import' });
      const account = await BankAccount.query(bench.db).insert({
        teamId: team.id,
        name: `bench ${Date.now()}`,
        currency: 'EUR',
        manual: true,
      });
      const secret = config.AUTH_JWT_SECRET;
      if (!secret) throw new Error('the bench signs its own session: set AUTH_JWT_SECRET, not AUTH_JWKS_URL');
      const token = await signSessionToken(secret, user.id);
      const csv = generatedCsv(ROWS);

      const body = new FormData();
      body.append('bankAccountId', account.id);
      body.append('mapping', JSON.stringify(GENERATED_CSV_MAPPING));
      body.append('file', new Blob([csv]), 'bench.csv');
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/transactions/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body,
      });
      if (res.status !== 202) throw new Error(`import answered ${res.status}: ${await res.text()}`);
      const { id } = ((await res.json()) as { data: { id: string } }).data;
      const accepted = performance.now();
      const result = await (await temporal.client()).workflow.getHandle<ImportTransactionsWorkflow>(importTransactionsId(id)).result();
      const seconds = (performance.now() - started) / 1000;
      const stored = await TransactionImport.query(bench.db).findById(id).throwIfNotFound();
      if (result.created !== ROWS || stored.createdCount !== ROWS)
        throw new Error(`expected ${ROWS} created, the import says ${result.created}`);
      const rate = ROWS / seconds;
      for (const [step, ms] of await stepTimes(temporal, importTransactionsId(id))) console.log(`  ${step}: ${(ms / 1000).toFixed(2)} s`);
      await forgetTeam(bench.db, team.id);
      console.log(
        `\nImport: ${ROWS.toLocaleString()} CSV rows (${(csv.length / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s (upload accepted after ${((accepted - started) / 1000).toFixed(2)} s), ${rate.toFixed(0)} rows/s  (target: over ${TARGET_ROWS_PER_SECOND.toLocaleString()} rows/s)`,
      );
      reportFigure({
        name: `CSV import, ${ROWS.toLocaleString()} rows through the API`,
        value: rate,
        unit: 'rows/s',
        budget: { on: 'value', atLeast: TARGET_ROWS_PER_SECOND },
      });
    });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await apiDeps.limiters.close();
    await apiDeps.credentials.close();
    await temporal.close();
    await connection.close();
    await env.teardown();
    await bench.close();
    await rm(path.resolve(PROJECT_ROOT, storageDir), { recursive: true, force: true });
  }
}

/** Each activity of the run, scheduled to completed: where the time goes (validating vs inserting). */
async function stepTimes(temporal: ReturnType<typeof createTemporalGateway>, workflowId: string): Promise<[string, number][]> {
  const history = await (await temporal.client()).workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Map<string, { type: string; at: number }>();
  const out: [string, number][] = [];
  for (const e of history.events ?? []) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(String(e.eventId), { type: s.activityType?.name ?? 'activity', at: tsToMs(e.eventTime) });
    const done = e.activityTaskCompletedEventAttributes;
    const began = done && scheduled.get(String(done.scheduledEventId));
    if (began) out.push([began.type, tsToMs(e.eventTime) - began.at]);
  }
  return out;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
