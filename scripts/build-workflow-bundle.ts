import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { DEFAULT_BUNDLE_PATH, TRACING_WORKFLOW_MODULES, tracedBundlePath } from '../worker/create-worker';

/**
 * Prebuilds the workflow bundle the worker loads in production (and in tests) instead of running webpack at start.
 * `traced`: the bundle with the tracing interceptors, which a worker with OTEL_EXPORTER_OTLP_ENDPOINT loads.
 */
export async function buildWorkflowBundle(outPath = DEFAULT_BUNDLE_PATH, opts: { traced?: boolean } = {}): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    ...(opts.traced ? { workflowInterceptorModules: TRACING_WORKFLOW_MODULES } : {}),
    logger: undefined,
  });
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, code);
  return outPath;
}

if (require.main === module) {
  const out = process.argv[2] ?? DEFAULT_BUNDLE_PATH;
  // One after the other: two webpack runs at once would double the build's memory.
  buildWorkflowBundle(out)
    .then(async (plain) => [plain, await buildWorkflowBundle(tracedBundlePath(out), { traced: true })])
    .then(
      (written) => console.log(`workflow bundles written to ${written.join(', ')}`),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
}
