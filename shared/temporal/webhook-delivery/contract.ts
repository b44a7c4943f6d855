import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface WebhookRetryPolicy {
  /** First wait after a failed attempt; it doubles each time up to maxIntervalMs. */
  initialIntervalMs: number;
  maxIntervalMs: number;
  /** No attempt starts later than this after the run began (3 days by default). */
  windowMs: number;
  /** How long one HTTP attempt may take (WEBHOOK_TIMEOUT): an attempt lost with its worker is retried soon after. */
  attemptTimeoutMs: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  teamId: string;
  endpointId: string;
  retry: WebhookRetryPolicy;
  /**
   * The attempts the relay made itself before handing the delivery over (it makes the first, and
   * starts a run only when that one fails): the run waits until `nextAttemptAt` and goes on from the
   * next attempt with the backoff those attempts reached. Absent (runs started before it existed, a
   * replay, a test event): the run makes the first attempt itself.
   */
  continueFrom?: WebhookDeliveryContinuation;
}

export interface WebhookDeliveryContinuation {
  /** Attempts already made for this run, all failed (at least 1). */
  attempts: number;
  lastStatusCode: number | null;
  /** When the next attempt is due (ISO 8601): the last failure plus the wait after it. */
  nextAttemptAt: string;
}

/** What one attempt came to: sent and answered 2xx; failed (try again); or nothing more to do (endpoint gone or disabled). */
export type WebhookAttemptOutcome = 'delivered' | 'failed' | 'abandoned';

export interface WebhookAttemptReport {
  outcome: WebhookAttemptOutcome;
  /**
   * The attempt's number (1-based, counting every run of the delivery); for a delivery found already
   * delivered, the attempt that delivered it; null when nothing was sent.
   */
  attempt: number | null;
  statusCode: number | null;
}

export type WebhookDeliveryStage = 'sending' | 'waiting_to_retry' | 'delivered' | 'failed' | 'abandoned';

export interface WebhookDeliveryProgress {
  stage: WebhookDeliveryStage;
  /** The delivery's attempts so far, as recorded: the relay's before the run, and any a lost worker made. */
  attempts: number;
  lastStatusCode: number | null;
  /** When the next attempt is due while waiting (ISO 8601). */
  nextAttemptAt: string | null;
}

export const webhookDeliveryProgress = defineQuery<WebhookDeliveryProgress>('webhookDeliveryProgress');

export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryProgress>;

export const webhookDeliveryContract = workflowContract<WebhookDeliveryWorkflow>('webhookDelivery');

/** One run at a time per delivery: the relay starting it twice finds the first; a replay starts a new run after it closed. */
export const webhookDeliveryId = (deliveryId: string) => `webhook-delivery:${deliveryId}`;
