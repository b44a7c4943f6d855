import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import * as workflows from '../../workflows';

const DIR = path.resolve(__dirname, '..', 'fixtures', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const historyOf = (file: string) => historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));

/**
 * Histories recorded from earlier versions of the workflows (npm run record-histories) must replay
 * on the current code: a non-deterministic change fails here instead of in production.
 */
describe('workflow history replay', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  // A workflow without a history would have nothing to catch its non-deterministic changes.
  it('has a recorded history of every workflow the worker runs', () => {
    const recorded = new Set(files.map((file) => historyOf(file).events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
    expect(Object.keys(workflows).filter((type) => !recorded.has(type))).toEqual([]);
  });

  it.each(files)('replays %s on the current workflow code', async (file) => {
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! } }, historyOf(file), `${file}-replay`),
    ).resolves.toBeUndefined();
  });
});
