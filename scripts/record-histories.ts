/**
 * Records workflow histories for the replay test (test/integration/replay.test.ts). Run after a
 * deliberate workflow change and commit the new files beside the old ones: the old ones keep
 * proving that runs started by earlier code still replay on the new code.
 *
 *   npm run record-histories                        (every scenario)
 *   npm run record-histories -- sync-exchange-rates (only the named ones)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '../shared/paths';
import { localDevServer } from './lib/temporal-cli';
import { SCENARIOS } from './lib/history-scenarios';

async function main() {
  const env = await TestWorkflowEnvironment.createLocal({
    server: localDevServer(),
  });
  const out = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories');
  mkdirSync(out, { recursive: true });
  try {
    const only = process.argv.slice(2);
    const unknown = only.filter((name) => !SCENARIOS.some((s) => s.name === name));
    if (unknown.length) throw new Error(`no scenario named ${unknown.join(', ')}; there are ${SCENARIOS.map((s) => s.name).join(', ')}`);
    for (const scenario of SCENARIOS.filter((s) => only.length === 0 || only.includes(s.name))) {
      const taskQueue = `record-${scenario.name}`;
      const worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        workflowsPath: require.resolve('../workflows'),
        activities: scenario.activities,
      });
      const workflowId = `${scenario.name}-${Date.now()}`;
      await worker.runUntil(scenario.run(env.client, { taskQueue, workflowId }));
      const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
      const file = path.join(out, `${scenario.name}.${new Date().toISOString().slice(0, 10)}.json`);
      // Canonical proto3 JSON, the format `temporal workflow show --output json` writes.
      writeFileSync(file, historyToJSON(history));
      console.log(`recorded ${file}`);
    }
  } finally {
    await env.teardown();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
