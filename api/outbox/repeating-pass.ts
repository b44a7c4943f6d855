import type { Logger } from '../../shared/logger';

export interface RepeatingPass {
  /** One pass now (or the one already running); resolves with how many items it took. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs an outbox pass every `intervalMs`, one at a time per process (a pass still running when the
 * timer fires is joined, not doubled). Passes of several processes are kept apart by the pass's own
 * skip-locked claims.
 */
export function repeatingPass(pass: () => Promise<number>, opts: { intervalMs: number; log: Logger; what: string }): RepeatingPass {
  let running: Promise<number> | undefined;
  let stopped = false;
  const runOnce = () => (running ??= pass().finally(() => (running = undefined)));
  const timer = setInterval(() => {
    if (!stopped) runOnce().catch((err: unknown) => opts.log.warn({ err }, `${opts.what} pass failed`));
  }, opts.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
