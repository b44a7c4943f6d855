import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import type { ImportDto } from '../../shared/domain/transaction-imports/schema';
import { startTestApi, testConfig, type TestApi } from './api';
import { withTestDatabase, type FileDatabase } from './database';
import { createTeamAndOwner } from './fixtures';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from './worker';

export interface Stack {
  env: Record<string, string>;
  tdb: FileDatabase;
  api: TestApi;
  worker: TestWorker;
  acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
}

/**
 * The e2e set-up for flows that run workflows: a fresh database, the gateway and a real worker
 * configured from the same environment (its own task queue and storage directory), and one team,
 * Acme. `env` is called inside beforeAll, so it can read fakes started by an earlier beforeAll.
 * Registers its own hooks; read the fields inside tests.
 */
export function withStack(label: string, env: () => Record<string, string> = () => ({})) {
  const stack = {} as Stack;
  // beforeAll may fail part way: the teardown stops only what was started.
  const started: Partial<Stack> = stack;
  stack.tdb = withTestDatabase({
    setUp: async () => {
      stack.env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue(label), STORAGE_DIR: `.data/test-storage-${label}-${process.pid}`, ...env() };
      stack.api = await startTestApi(stack.tdb.db, { env: stack.env });
      stack.worker = await startTestWorker(testConfig(stack.env), stack.tdb.db);
      stack.acme = await createTeamAndOwner(stack.tdb.db, 'Acme');
    },
    tearDown: async () => {
      await started.worker?.stop();
      await started.api?.stop();
      if (started.env) await rm(path.resolve(PROJECT_ROOT, started.env.STORAGE_DIR), { recursive: true, force: true });
    },
  });
  return stack;
}

/**
 * Imports a bank statement CSV (`Date,Description,Amount` lines, ISO dates) into an account through
 * the API, as a person would, and waits for its run to end. Returns the import as `GET` shows it.
 */
export async function importStatement(stack: Stack, bankAccountId: string, lines: string[]): Promise<ImportDto> {
  const form = new FormData();
  form.append('bankAccountId', bankAccountId);
  form.append(
    'mapping',
    JSON.stringify({ date: 'Date', description: 'Description', amount: 'Amount', dateFormat: 'YYYY-MM-DD', decimalSeparator: '.' }),
  );
  form.append('file', new Blob([['Date,Description,Amount', ...lines].join('\n')]), 'statement.csv');
  const started = await stack.api.fetch('/transactions/import', { method: 'POST', token: stack.acme.sessionToken, body: form });
  if (started.status !== 202) throw new Error(`the import was refused: ${started.status} ${await started.text()}`);
  const { data } = (await started.json()) as { data: { id: string; workflowId: string } };
  await stack.worker.client.workflow.getHandle(data.workflowId).result();
  const read = await stack.api.fetch(`/transactions/imports/${data.id}`, { token: stack.acme.sessionToken });
  return ((await read.json()) as { data: ImportDto }).data;
}
