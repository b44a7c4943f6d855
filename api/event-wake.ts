import type { Db } from '../shared/db/knex';
import type { NextCommit } from '../shared/domain/events/service';
import { EVENTS_CHANNEL } from '../shared/domain/webhook-endpoints/events';
import type { Logger } from '../shared/logger';
import { wakeOnNotify } from './outbox/wake-on-notify';

export interface EventWake {
  /** Arms a wait for the team's next commit of events (long polls and streams of GET /events). */
  nextCommit(teamId: string): ReturnType<NextCommit>;
  close(): Promise<void>;
}

/**
 * One LISTEN per API process for every waiting reader of the feed, opened when the first one waits:
 * emitting events notifies `events_committed` with the team's id at commit, which wakes that team's
 * waiters only. A wake-up is a shortcut: readers also read again on their own after a while, so a
 * NOTIFY lost while the listener reconnects delays them, never loses an event.
 */
export function createEventWake(db: Db, logger: Logger): EventWake {
  const waiting = new Map<string, Set<() => void>>();
  let listener: { close(): Promise<void> } | undefined;
  let closed = false;
  const wake = (teamId: string) => {
    const waiters = waiting.get(teamId);
    waiting.delete(teamId);
    waiters?.forEach((w) => w());
  };
  return {
    nextCommit(teamId) {
      if (!listener && !closed) listener = wakeOnNotify(db, EVENTS_CHANNEL, wake, logger.child({ component: 'event-wake' }));
      let done!: () => void;
      const woken = new Promise<void>((resolve) => (done = resolve));
      const waiters = waiting.get(teamId) ?? new Set();
      waiting.set(teamId, waiters);
      waiters.add(done);
      return {
        woken,
        cancel() {
          waiters.delete(done);
          if (!waiters.size && waiting.get(teamId) === waiters) waiting.delete(teamId);
        },
      };
    },
    async close() {
      closed = true;
      await listener?.close();
      for (const teamId of [...waiting.keys()]) wake(teamId);
    },
  };
}
