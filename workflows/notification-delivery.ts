import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { NotificationActivities } from '../activities/notifications/deliver';
import {
  notificationDeliveryProgress,
  type NotificationDeliveryProgress,
  type NotificationDeliveryWorkflow,
} from '../shared/temporal/notification-delivery/contract';
import { Stage } from '../shared/temporal/search-attribute-keys';

const { unsentNotificationEmails } = proxyActivities<NotificationActivities>({ startToCloseTimeout: '30s' });
const { sendNotificationEmail } = proxyActivities<NotificationActivities>({
  startToCloseTimeout: '30s',
  // A mail server down for a while must not lose the notice: keep retrying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/**
 * NotificationDelivery (id `notification:<notificationId>`): mails a notification to each member who
 * asked for its type by email, one activity per recipient, all at once. The outbox row of each recipient makes the
 * send once-only: a worker lost after a mail went out finds the row `sent` and skips it.
 */
export const notificationDelivery: NotificationDeliveryWorkflow = async ({ notificationId }) => {
  const progress: NotificationDeliveryProgress = { stage: 'sending', total: 0, sent: 0, skipped: 0, failed: 0 };
  setHandler(notificationDeliveryProgress, () => progress);

  const deliveries = await unsentNotificationEmails({ notificationId });
  progress.total = deliveries.length;
  // Side by side: a mailbox that refuses for hours must not hold up the other recipients.
  await Promise.all(
    deliveries.map(async (deliveryId) => {
      const outcome = await sendNotificationEmail({ deliveryId });
      if (outcome === 'sent') progress.sent++;
      else if (outcome === 'skipped') progress.skipped++;
      else progress.failed++;
    }),
  );
  progress.stage = 'done';
  upsertSearchAttributes([{ key: Stage, value: 'done' }]);
  return progress;
};
