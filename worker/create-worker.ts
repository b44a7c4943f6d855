import { existsSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { PROJECT_ROOT } from '../shared/paths';
import { auditActivities } from './audit-actor';
import type { WorkerTracing } from './tracing';

export const DEFAULT_BUNDLE_PATH = path.join(PROJECT_ROOT, 'dist', 'workflow-bundle.js');

/** The workflow interceptors a traced bundle carries (the plain one has none). */
export const TRACING_WORKFLOW_MODULES = [require.resolve('./workflow-tracing')];

/** The traced bundle beside a plain one: `workflow-bundle.js` → `workflow-bundle.traced.js`. */
export const tracedBundlePath = (bundlePath: string) => bundlePath.replace(/(\.js)?$/, '.traced.js');

/**
 * The workflow code: a prebuilt bundle when there is one (fast start, and what production runs),
 * else the sources, which Temporal bundles with webpack at start-up (a few seconds). With tracing on,
 * the traced bundle beside the given one, or the sources with the tracing interceptors.
 */
export function workflowSource(
  bundlePath?: string,
  opts: { traced?: boolean } = {},
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> & { workflowModules?: string[] } {
  const plain = bundlePath ?? DEFAULT_BUNDLE_PATH;
  const candidate = opts.traced ? tracedBundlePath(plain) : plain;
  if (existsSync(candidate)) return { workflowBundle: { codePath: candidate } };
  return { workflowsPath: require.resolve('../workflows'), ...(opts.traced ? { workflowModules: TRACING_WORKFLOW_MODULES } : {}) };
}

/** After the grace, how long cancelled activities get to wind up before the worker gives up on them. */
export const SHUTDOWN_FORCE_MARGIN_MS = 5_000;

export interface WorkerParams {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  bundlePath?: string;
  identity?: string;
  /**
   * How long activities in flight may run on after shutdown begins, before they are cancelled; the
   * worker stops polling at once. Unset: cancelled at once.
   */
  shutdownGraceMs?: number;
  /** Replaces some activities (tests mock a provider-facing activity this way). */
  activityOverrides?: Record<string, unknown>;
  /** With tracing on: its activity interceptor and the sink the workflows' spans leave through. */
  tracing?: WorkerTracing;
}

export async function createWorker(p: WorkerParams): Promise<Worker> {
  const { workflowModules, ...source } = workflowSource(p.bundlePath, { traced: p.tracing !== undefined });
  return Worker.create({
    connection: p.connection,
    namespace: p.namespace,
    taskQueue: p.taskQueue,
    activities: { ...createActivities(p.deps), ...p.activityOverrides },
    // The tracing span outermost: the audit actor, and the activity's queries and calls, run inside it.
    interceptors: {
      activity: [...(p.tracing ? [p.tracing.activity] : []), auditActivities],
      ...(workflowModules ? { workflowModules } : {}),
    },
    ...(p.tracing ? { sinks: p.tracing.sinks } : {}),
    ...(p.identity ? { identity: p.identity } : {}),
    // An activity that ignores its cancellation would hold the worker up for ever: a moment after the
    // grace the run fails, and the process exits.
    ...(p.shutdownGraceMs !== undefined
      ? { shutdownGraceTime: p.shutdownGraceMs, shutdownForceTime: p.shutdownGraceMs + SHUTDOWN_FORCE_MARGIN_MS }
      : {}),
    ...source,
  });
}
