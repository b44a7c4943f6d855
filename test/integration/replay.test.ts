import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';

const DIR = path.resolve(__dirname, '..', 'fixtures', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

/**
 * Histories recorded from earlier versions of the workflows (npm run record-histories) must replay
 * on the current code: a non-deterministic change fails here instead of in production.
 */
describe('workflow history replay', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('replays %s on the current workflow code', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! } }, history, `${file}-replay`),
    ).resolves.toBeUndefined();
  });
});
