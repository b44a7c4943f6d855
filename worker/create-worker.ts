import { existsSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { PROJECT_ROOT } from '../shared/paths';
import { auditActivities } from './audit-actor';

export const DEFAULT_BUNDLE_PATH = path.join(PROJECT_ROOT, 'dist', 'workflow-bundle.js');

/**
 * The workflow code: a prebuilt bundle when there is one (fast start, and what production runs),
 * else the sources, which Temporal bundles with webpack at start-up (a few seconds).
 */
export function workflowSource(bundlePath?: string): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  const candidate = bundlePath ?? DEFAULT_BUNDLE_PATH;
  if (existsSync(candidate)) return { workflowBundle: { codePath: candidate } };
  return { workflowsPath: require.resolve('../workflows') };
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
}

export async function createWorker(p: WorkerParams): Promise<Worker> {
  return Worker.create({
    connection: p.connection,
    namespace: p.namespace,
    taskQueue: p.taskQueue,
    activities: { ...createActivities(p.deps), ...p.activityOverrides },
    interceptors: { activity: [auditActivities] },
    ...(p.identity ? { identity: p.identity } : {}),
    // An activity that ignores its cancellation would hold the worker up for ever: a moment after the
    // grace the run fails, and the process exits.
    ...(p.shutdownGraceMs !== undefined
      ? { shutdownGraceTime: p.shutdownGraceMs, shutdownForceTime: p.shutdownGraceMs + SHUTDOWN_FORCE_MARGIN_MS }
      : {}),
    ...workflowSource(p.bundlePath),
  });
}
