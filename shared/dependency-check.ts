import { pingDb, type Db } from './db/knex';

/** One dependency as a probe saw it: what /health, /readyz and the worker's /readyz report. */
export interface DependencyCheck {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

/** Within this long a dependency answers or counts as down: a probe must answer before its caller gives up on it. */
export const CHECK_TIMEOUT_MS = 2000;

/** What a probe says of the checks that failed: `database is down: <why>; temporal is down: <why>`. */
export const downIn = (checks: Record<string, DependencyCheck>): string =>
  Object.entries(checks)
    .filter(([, c]) => c.status === 'down')
    .map(([name, c]) => `${name} is down: ${c.error ?? 'no answer'}`)
    .join('; ');

/** Runs one check, timed; a failure becomes `down` with the first line of its message. */
export async function checkDependency(fn: () => Promise<unknown>): Promise<DependencyCheck> {
  const start = performance.now();
  try {
    await fn();
    return { status: 'up', latencyMs: Math.round(performance.now() - start) };
  } catch (err) {
    return { status: 'down', latencyMs: Math.round(performance.now() - start), error: (err as Error).message.split('\n')[0] };
  }
}

/**
 * `select 1` within the timeout. An unreachable server does not fail the query at once: the pool
 * waits for a connection far longer than any probe would.
 */
export function databaseAnswers(db: Db, timeoutMs = CHECK_TIMEOUT_MS): Promise<void> {
  return Promise.race([
    pingDb(db),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs).unref(),
    ),
  ]);
}
