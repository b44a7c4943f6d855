import { claimDueWebhookDeliveries, relayClaimedDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import { WEBHOOK_DELIVERIES_CHANNEL } from '../../shared/domain/webhook-endpoints/events';
import type { WebhookAttemptReport } from '../../shared/temporal/webhook-delivery/contract';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';
import { wakeOnNotify } from './wake-on-notify';

/** Deliveries one process has in hand at once (an attempt each, or the start of its run). */
const AT_ONCE = 32;

/**
 * Delivers what waits in the webhook outbox: emitEvent() queues a delivery in the transaction of the
 * change, wherever it runs (a request, a bank sync, a workflow's activity), so the event exists
 * exactly when the change does, and notifies at its commit, which wakes this relay at once; the poll
 * every `intervalMs` is the safety net. The relay makes each delivery's first attempt itself, since
 * most succeed at once, and starts a WebhookDelivery run only for one that failed (the run goes on
 * from the second attempt) or that a lost process left claimed (after `staleAfterS`).
 *
 * A pass claims only as many rows as the process has free hands (`atOnce`) and does not wait for
 * them: an endpoint slow to answer (up to WEBHOOK_TIMEOUT) holds one hand, not every delivery behind
 * it, and a claimed row is attempted at once, well before its claim could be taken as stale. When a
 * hand frees up after a pass found more due than it could take, another pass follows.
 */
export function startWebhookDeliveryRelay(
  deps: Pick<ApiDeps, 'db' | 'temporal' | 'logger' | 'config'> & { metrics?: Pick<ApiDeps['metrics'], 'deliveryAttempt'> },
  opts: { intervalMs: number; staleAfterS?: number; atOnce?: number },
): RepeatingPass {
  const log = deps.logger.child({ component: 'webhook-delivery-relay' });
  const atOnce = opts.atOnce ?? AT_ONCE;
  // A claim is taken as lost only well after an attempt made under it must have ended.
  const staleAfterS = opts.staleAfterS ?? Math.max(60, Math.ceil((2 * deps.config.WEBHOOK_TIMEOUT) / 1000));
  const inHand = new Set<Promise<void>>();
  // Passes a freed hand asked for, until they have taken what they found.
  const followUps = new Set<Promise<void>>();
  let moreDue = false;
  let stopped = false;
  const relayDeps = { ...deps, logger: log, onAttempt: (r: WebhookAttemptReport) => deps.metrics?.deliveryAttempt(r.outcome) };

  const pass = repeatingPass(
    async () => {
      const free = atOnce - inHand.size;
      if (free <= 0) {
        moreDue = true;
        return 0;
      }
      const due = await claimDueWebhookDeliveries(deps.db, { limit: free, staleAfterS });
      moreDue = due.length === free;
      for (const d of due) {
        const done: Promise<void> = relayClaimedDelivery(relayDeps, d)
          .then(
            () => undefined,
            // Whatever it could not record stays `starting`, claimed again once stale.
            (err: unknown) => log.warn({ err, deliveryId: d.deliveryId }, 'webhook delivery relay could not finish a delivery'),
          )
          .finally(() => {
            inHand.delete(done);
            if (moreDue && !stopped) {
              moreDue = false;
              const next = pass
                .runOnce()
                .then(() => undefined)
                .catch((err: unknown) => log.warn({ err }, 'webhook delivery relay pass failed'))
                .finally(() => followUps.delete(next));
              followUps.add(next);
            }
          });
        inHand.add(done);
      }
      return due.length;
    },
    { intervalMs: opts.intervalMs, log, what: 'webhook delivery relay', audit: 'outbox:webhook-delivery-relay' },
  );
  // Every API process is woken; their skip-locked claims share out the rows.
  const waker = wakeOnNotify(
    deps.db,
    WEBHOOK_DELIVERIES_CHANNEL,
    () => void pass.runOnce().catch((err: unknown) => log.warn({ err }, 'webhook delivery relay pass failed')),
    log,
  );
  const settle = async () => {
    while (inHand.size || followUps.size) await Promise.all([...inHand, ...followUps]);
  };
  return {
    /** A pass, and every delivery in hand until none is left (the passes it led to included): how many that pass took. */
    async runOnce() {
      const taken = await pass.runOnce();
      await settle();
      return taken;
    },
    async stop() {
      stopped = true;
      await waker.close();
      await pass.stop();
      await settle();
    },
  };
}
