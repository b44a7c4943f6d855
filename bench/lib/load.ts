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
