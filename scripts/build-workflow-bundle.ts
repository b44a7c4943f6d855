import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { DEFAULT_BUNDLE_PATH } from '../worker/create-worker';

/** Prebuilds the workflow bundle the worker loads in production (and in tests) instead of running webpack at start. */
export async function buildWorkflowBundle(outPath = DEFAULT_BUNDLE_PATH): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: undefined });
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, code);
  return outPath;
}

if (require.main === module) {
  buildWorkflowBundle(process.argv[2]).then(
    (p) => console.log(`workflow bundle written to ${p}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
