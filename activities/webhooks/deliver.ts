import { log } from '@temporalio/activity';
import { attemptWebhookDelivery, giveUpWebhookDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import type { WebhookAttemptReport } from '../../shared/temporal/webhook-delivery/contract';
import type { ActivityDeps } from '../deps';

export function webhookDeliveryActivities({ db, config, metrics }: ActivityDeps) {
  return {
    /** One signed POST, recorded; an HTTP failure is an outcome, not an error (the workflow owns the backoff). */
    async attemptWebhookDelivery({ deliveryId }: { deliveryId: string }): Promise<WebhookAttemptReport> {
      const report = await attemptWebhookDelivery({ db, config }, deliveryId);
      log.info('webhook delivery attempt', { deliveryId, ...report });
      metrics?.deliveryAttempt(report.outcome);
      return report;
    },

    async giveUpWebhookDelivery({ deliveryId }: { deliveryId: string }): Promise<void> {
      await giveUpWebhookDelivery(db, deliveryId);
    },
  };
}

export type WebhookDeliveryActivities = ReturnType<typeof webhookDeliveryActivities>;
