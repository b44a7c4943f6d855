import { claimDueWebhookDeliveries, startClaimedDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';

/**
 * Starts a WebhookDelivery workflow for every delivery waiting in the outbox: emitEvent() queues
 * them in the transaction of the change, wherever it runs (a request, a bank sync, a workflow's
 * activity), so the event exists exactly when the change does. A start that fails puts its row back;
 * one lost with its process is claimed again after `staleAfterS`, and the workflow id makes the
 * second start find the first run.
 */
export function startWebhookDeliveryRelay(
  deps: Pick<ApiDeps, 'db' | 'temporal' | 'logger' | 'config'>,
  opts: { intervalMs: number; staleAfterS?: number },
): RepeatingPass {
  const log = deps.logger.child({ component: 'webhook-delivery-relay' });
  return repeatingPass(
    async () => {
      const due = await claimDueWebhookDeliveries(deps.db, { limit: 100, staleAfterS: opts.staleAfterS ?? 60 });
      for (const d of due) await startClaimedDelivery({ ...deps, logger: log }, d);
      return due.length;
    },
    { intervalMs: opts.intervalMs, log, what: 'webhook delivery relay' },
  );
}
