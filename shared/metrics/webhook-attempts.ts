import type { Registry } from 'prom-client';
import type { WebhookAttemptOutcome } from '../temporal/webhook-delivery/contract';
import { CounterFamily, type CounterCell } from './cells';

const OUTCOMES: readonly WebhookAttemptOutcome[] = ['delivered', 'failed', 'abandoned'];

/**
 * Outgoing webhook delivery attempts by outcome, never by endpoint (ids would make a series each).
 * Both processes send them: the API's relay makes each delivery's first attempt, the worker's
 * WebhookDelivery runs the retries; Prometheus adds up the two.
 */
export class WebhookAttemptCounter {
  private readonly family = new CounterFamily(
    'finops_webhook_delivery_attempts_total',
    'Outgoing webhook delivery attempts, by outcome: delivered (2xx), failed (retried later), abandoned (endpoint gone or disabled).',
    ['outcome'],
  );
  private readonly cells: Map<WebhookAttemptOutcome, CounterCell>;

  constructor(registry: Registry) {
    this.family.registerIn(registry);
    this.cells = new Map(OUTCOMES.map((o) => [o, this.family.cell(o)]));
  }

  inc(outcome: WebhookAttemptOutcome): void {
    this.cells.get(outcome)?.inc();
  }
}
