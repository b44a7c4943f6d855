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
 * window (3 days by default). The relay makes a delivery's first attempt itself and starts a run only
 * when it fails (`continueFrom`: the run waits, then goes on from the second attempt); a replay or a
 * test event starts one from the first. Every attempt is recorded by its activity; the delivery id is the
 * `webhook-id` of every attempt, so a receiver drops what it has seen. The timers are durable: a
 * worker lost while waiting loses nothing, and the next worker sends the next attempt on time.
 */
export const webhookDelivery: WebhookDeliveryWorkflow = async ({ deliveryId, retry, continueFrom }) => {
  // An attempt's HTTP failure is its result, not an error: Temporal retries only what broke around it
  // (the database, a worker lost mid-request: that attempt is sent again, with the same webhook-id).
  const { attemptWebhookDelivery, giveUpWebhookDelivery } = proxyActivities<WebhookDeliveryActivities>({
    startToCloseTimeout: retry.attemptTimeoutMs + 10_000,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });
  // Handed over after the relay's own attempts failed: the run starts waiting (its Stage search
  // attribute was set so at the start), and sends none of those attempts again.
  const progress: WebhookDeliveryProgress = continueFrom
    ? {
        stage: 'waiting_to_retry',
        attempts: continueFrom.attempts,
        lastStatusCode: continueFrom.lastStatusCode,
        nextAttemptAt: continueFrom.nextAttemptAt,
      }
    : { stage: 'sending', attempts: 0, lastStatusCode: null, nextAttemptAt: null };
  setHandler(webhookDeliveryProgress, () => progress);
  const setStage = (stage: WebhookDeliveryStage) => {
    if (progress.stage === stage) return;
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
  };
  const giveUp = async () => {
    await giveUpWebhookDelivery({ deliveryId });
    setStage('failed');
    return progress;
  };

  const deadline = Date.now() + retry.windowMs;
  let wait = retry.initialIntervalMs;
  if (continueFrom) {
    const due = Date.parse(continueFrom.nextAttemptAt);
    if (due > deadline) return giveUp();
    // The wait after the relay's last failure has been decided (nextAttemptAt); the one after the
    // next failure is what the backoff reaches after that many attempts.
    for (let i = 0; i < continueFrom.attempts; i++) wait = Math.min(wait * 2, retry.maxIntervalMs);
    if (due > Date.now()) await sleep(due - Date.now());
  }
  for (;;) {
    setStage('sending');
    progress.nextAttemptAt = null;
    const report = await attemptWebhookDelivery({ deliveryId });
    // The recorded number, not a count of calls: an attempt whose report was lost with its worker
    // was recorded, and the activity's retry made (and reports) the next one.
    if (report.attempt !== null) progress.attempts = report.attempt;
    progress.lastStatusCode = report.statusCode;
    if (report.outcome === 'delivered' || report.outcome === 'abandoned') {
      setStage(report.outcome);
      return progress;
    }
    if (Date.now() + wait > deadline) return giveUp();
    progress.nextAttemptAt = new Date(Date.now() + wait).toISOString();
    setStage('waiting_to_retry');
    await sleep(wait);
    wait = Math.min(wait * 2, retry.maxIntervalMs);
  }
};
