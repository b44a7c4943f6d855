import { sweepExpiredEvents } from '../../shared/domain/events/retention';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';

/** Deletes events past EVENTS_RETENTION from the feed every `intervalMs`, in every API process (their deletes skip each other's rows). */
export function startEventSweep(deps: Pick<ApiDeps, 'db' | 'logger'>, opts: { intervalMs: number; retentionMs: number }): RepeatingPass {
  const log = deps.logger.child({ component: 'event-sweep' });
  return repeatingPass(() => sweepExpiredEvents(deps.db, opts.retentionMs), {
    intervalMs: opts.intervalMs,
    log,
    what: 'event sweep',
    audit: 'outbox:event-sweep',
  });
}
