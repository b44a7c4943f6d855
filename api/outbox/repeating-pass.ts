import { asSystem } from '../../shared/db/team-wall';
import type { Logger } from '../../shared/logger';

export interface RepeatingPass {
  /**
   * A pass that starts no earlier than this call, so it sees every row committed before it: now, or
   * right after the pass under way. Resolves with how many items it took.
   */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs an outbox pass every `intervalMs` and whenever asked, one at a time per process. A call made
 * while a pass is under way gets one more pass after it, shared by every call made meanwhile: the
 * pass under way may have looked for rows before the caller's were committed, and joining it lost
 * a NOTIFY's wake-up until the next poll (a delivery waited the whole 10-minute poll of
 * test/e2e/webhooks-out.test.ts). Passes of several processes are kept apart by the pass's own
 * skip-locked claims.
 */
export function repeatingPass(
  work: () => Promise<number>,
  opts: {
    intervalMs: number;
    log: Logger;
    what: string;
    /**
     * The operation the audit trail names for what a pass writes, as the service itself (`outbox:<pass>`).
     * Left out by a pass that acts for someone else and says so itself (the webhook relay: the provider).
     */
    audit?: string;
  },
): RepeatingPass {
  const { audit } = opts;
  const pass = audit ? () => asSystem(audit, work) : work;
  let running: Promise<number> | undefined;
  let following: Promise<number> | undefined;
  let stopped = false;
  const runOnce = (): Promise<number> => {
    if (!running) return (running = pass().finally(() => (running = undefined)));
    following ??= running
      .catch(() => undefined)
      .then(() => {
        following = undefined;
        return stopped ? 0 : runOnce();
      });
    return following;
  };
  const timer = setInterval(() => {
    if (!stopped) runOnce().catch((err: unknown) => opts.log.warn({ err }, `${opts.what} pass failed`));
  }, opts.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await (following ?? running)?.catch(() => undefined);
    },
  };
}
