import autocannon from 'autocannon';
import { tcpAnswers } from '../../scripts/lib/ports';

/**
 * HTTP load from this (the bench's) process; the servers under test run in processes of their own,
 * so the generator never competes for the event loop it measures.
 */
export function load(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) =>
    autocannon(opts, (err: unknown, result) =>
      err ? reject(err instanceof Error ? err : new Error('autocannon failed', { cause: err })) : resolve(result),
    ),
  );
}

export async function waitForPort(address: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await tcpAnswers(address))) {
    if (Date.now() > end) throw new Error(`${address} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A comparator that answers errors is fast at nothing: every answer of every named run must be a
 * 2xx, or the bench stops before printing figures that would mean nothing.
 */
export function requireEveryAnswerOk(runs: Record<string, { non2xx: number; errors: number }>): void {
  for (const [who, r] of Object.entries(runs)) {
    if (r.non2xx || r.errors) throw new Error(`${who}: ${r.non2xx} non-2xx answers and ${r.errors} errors; the figures would mean nothing`);
  }
}
