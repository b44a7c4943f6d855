import { claimDueNotificationEmails, releaseNotificationEmails } from '../../shared/domain/notifications/delivery';
import { startNotificationDelivery } from '../../shared/temporal/notification-delivery/calls';
import { reconcileEach } from '../../shared/temporal/reconcile';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';

/**
 * Starts a NotificationDelivery workflow for every notification with emails waiting in the outbox
 * (notify() queues them in the notification's own transaction, wherever it runs: a webhook, a sync, a
 * receipt). A start that fails puts its rows back; one lost with its process is claimed again after
 * `staleAfterS`, and the workflow id makes the second start find the first run. Runs are started
 * several at a time, as the webhook delivery relay's are.
 */
export function startNotificationRelay(
  deps: Pick<ApiDeps, 'db' | 'temporal' | 'logger'>,
  opts: { intervalMs: number; staleAfterS?: number },
): RepeatingPass {
  const log = deps.logger.child({ component: 'notification-relay' });
  return repeatingPass(
    async () => {
      const due = await claimDueNotificationEmails(deps.db, { limit: 50, staleAfterS: opts.staleAfterS ?? 60 });
      const { failed, firstError } = await reconcileEach(due, async (n) => {
        try {
          await startNotificationDelivery(deps.temporal, { notificationId: n.notificationId, teamId: n.teamId }, n);
        } catch (err) {
          log.warn({ err, notificationId: n.notificationId }, 'could not start a notification delivery; it stays due');
          await releaseNotificationEmails(deps.db, n.notificationId);
        }
      });
      // Claims that could not be released are claimed again once stale.
      if (failed) log.warn({ err: firstError, failed }, 'could not release some notification claims');
      return due.length;
    },
    { intervalMs: opts.intervalMs, log, what: 'notification relay', audit: 'outbox:notification-relay' },
  );
}
