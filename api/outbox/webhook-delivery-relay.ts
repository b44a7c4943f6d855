import { claimDueWebhookDeliveries, startClaimedDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import { WEBHOOK_DELIVERIES_CHANNEL } from '../../shared/domain/webhook-endpoints/events';
import { reconcileEach } from '../../shared/temporal/reconcile';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';
import { wakeOnNotify } from './wake-on-notify';

/**
 * Starts a WebhookDelivery workflow for every delivery waiting in the outbox: emitEvent() queues
 * them in the transaction of the change, wherever it runs (a request, a bank sync, a workflow's
 * activity), so the event exists exactly when the change does, and notifies at its commit, which
 * wakes this relay at once; the poll every `intervalMs` is the safety net. A start that fails puts its row back;
 * one lost with its process is claimed again after `staleAfterS`, and the workflow id makes the
 * second start find the first run. A pass starts its runs several at a time: one after another, a
 * burst of one team's events held every other team's deliveries back by a round trip per run.
 */
export function startWebhookDeliveryRelay(
  deps: Pick<ApiDeps, 'db' | 'temporal' | 'logger' | 'config'>,
  opts: { intervalMs: number; staleAfterS?: number },
): RepeatingPass {
  const log = deps.logger.child({ component: 'webhook-delivery-relay' });
  const pass = repeatingPass(
    async () => {
      const due = await claimDueWebhookDeliveries(deps.db, { limit: 100, staleAfterS: opts.staleAfterS ?? 60 });
      const { failed, firstError } = await reconcileEach(due, (d) => startClaimedDelivery({ ...deps, logger: log }, d));
      // A start that failed has released its claim; one that could not record it is claimed again once stale.
      if (failed) log.warn({ err: firstError, failed }, 'could not record some webhook delivery starts');
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
  return {
    runOnce: () => pass.runOnce(),
    async stop() {
      await waker.close();
      await pass.stop();
    },
  };
}
