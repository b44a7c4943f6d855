import { proxyActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { WebhookDeliveryActivities } from '../activities/webhooks/deliver';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  webhookDeliveryProgress,
  type WebhookDeliveryProgress,
  type WebhookDeliveryStage,
  type WebhookDeliveryWorkflow,
} from '../shared/temporal/webhook-delivery/contract';

/**
 * WebhookDelivery (id `webhook-delivery:<deliveryId>`): POSTs one signed event to one endpoint until
 * it answers 2xx, waiting twice as long after each failure (up to the longest wait) for the retry
 * window (3 days by default). Every attempt is recorded by its activity; the delivery id is the
 * `webhook-id` of every attempt, so a receiver drops what it has seen. The timers are durable: a
 * worker lost while waiting loses nothing, and the next worker sends the next attempt on time.
 */
export const webhookDelivery: WebhookDeliveryWorkflow = async ({ deliveryId, retry }) => {
  // An attempt's HTTP failure is its result, not an error: Temporal retries only what broke around it
  // (the database, a worker lost mid-request: that attempt is sent again, with the same webhook-id).
  const { attemptWebhookDelivery, giveUpWebhookDelivery } = proxyActivities<WebhookDeliveryActivities>({
    startToCloseTimeout: retry.attemptTimeoutMs + 10_000,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });
  const progress: WebhookDeliveryProgress = { stage: 'sending', attempts: 0, lastStatusCode: null, nextAttemptAt: null };
  setHandler(webhookDeliveryProgress, () => progress);
  const setStage = (stage: WebhookDeliveryStage) => {
    if (progress.stage === stage) return;
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
  };

  const deadline = Date.now() + retry.windowMs;
  let wait = retry.initialIntervalMs;
  for (;;) {
    setStage('sending');
    progress.nextAttemptAt = null;
    const report = await attemptWebhookDelivery({ deliveryId });
    if (report.attempt !== null) progress.attempts++;
    progress.lastStatusCode = report.statusCode;
    if (report.outcome === 'delivered' || report.outcome === 'abandoned') {
      setStage(report.outcome);
      return progress;
    }
    if (Date.now() + wait > deadline) {
      await giveUpWebhookDelivery({ deliveryId });
      setStage('failed');
      return progress;
    }
    progress.nextAttemptAt = new Date(Date.now() + wait).toISOString();
    setStage('waiting_to_retry');
    await sleep(wait);
    wait = Math.min(wait * 2, retry.maxIntervalMs);
  }
};
