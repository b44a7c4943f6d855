import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import { startTestApi, testConfig, type TestApi } from './api';
import { withTestDatabase, type FileDatabase } from './database';
import { createTeamAndOwner } from './fixtures';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from './worker';

interface Stack {
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
