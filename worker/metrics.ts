import net from 'node:net';
import type { Registry } from 'prom-client';
import type { Db } from '../shared/db/knex';
import { processRegistry } from '../shared/metrics/registry';
import type { Scrape } from '../shared/metrics/server';
import { WebhookAttemptCounter } from '../shared/metrics/webhook-attempts';
import type { WebhookAttemptOutcome } from '../shared/temporal/webhook-delivery/contract';

/**
 * The worker's own metrics: its PostgreSQL pool, the process, and what its activities count
 * (webhook delivery attempts by outcome).
 */
export class WorkerMetrics {
  readonly registry: Registry;
  private readonly attempts: WebhookAttemptCounter;

  constructor(db: Db, opts: { processMetrics: boolean }) {
    this.registry = processRegistry(db, opts);
    this.attempts = new WebhookAttemptCounter(this.registry);
  }

  deliveryAttempt(outcome: WebhookAttemptOutcome): void {
    this.attempts.inc(outcome);
  }

  /**
   * Ours, then the Temporal SDK's (the Rust core's exporter, on a loopback port of its own, when the
   * runtime was installed with one): one scrape of the worker's port sees both.
   */
  scrape(temporalMetricsUrl: string | undefined): Scrape {
    return async () => {
      const own = await this.registry.metrics();
      if (!temporalMetricsUrl) return { contentType: this.registry.contentType, body: own };
      const sdk = await fetch(temporalMetricsUrl, { signal: AbortSignal.timeout(2000) })
        .then((res) => (res.ok ? res.text() : `# Temporal's exporter answered ${res.status}\n`))
        .catch((err: unknown) => `# Temporal's exporter did not answer: ${(err as Error).message}\n`);
      return { contentType: this.registry.contentType, body: `${own}\n${sdk}` };
    };
  }
}

/** A loopback port free now, for the Temporal runtime's exporter (which reports no port it picked itself). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
