import type { Middleware } from 'koa';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../shared/db/knex';
import { readBacklogs, type Backlogs } from '../shared/domain/backlogs/service';
import type { WebhookProvider } from '../shared/domain/webhook-events/record';
import { CounterFamily, HistogramFamily, LATENCY_BUCKETS, type CounterCell, type HistogramCell } from '../shared/metrics/cells';
import { processRegistry } from '../shared/metrics/registry';
import { WebhookAttemptCounter } from '../shared/metrics/webhook-attempts';
import type { WebhookAttemptOutcome } from '../shared/temporal/webhook-delivery/contract';
import { boundedMethod } from './http/methods';
import type { AppState } from './http/state';

/** Which way a request reached its handler: an operation's REST or tRPC door, or a route no declaration makes. */
export type Door = 'rest' | 'trpc' | 'http';
/** The limits that answer 429, each counted by name. */
export type Limit = 'requests' | 'auth_failures' | 'webhook_failures' | 'registrations' | 'assistant';

const LIMITS: readonly Limit[] = ['requests', 'auth_failures', 'webhook_failures', 'registrations', 'assistant'];

/**
 * One door of one operation (or one route), made once when the door is built: recording a request
 * is a map lookup by status and three additions, nothing allocated.
 */
export class RequestMeter {
  private readonly byStatus = new Map<number, CounterCell>();

  constructor(
    private readonly metrics: ApiMetrics,
    private readonly labels: [operation: string, door: Door],
    private readonly latency: HistogramCell,
  ) {}

  /** `startedAt` is `performance.now()` when the door took the request. */
  record(status: number, startedAt: number): void {
    this.latency.observe((performance.now() - startedAt) / 1000);
    let cell = this.byStatus.get(status);
    if (!cell) {
      cell = this.metrics.requests.cell(...this.labels, String(status));
      this.byStatus.set(status, cell);
    }
    cell.inc();
    if (status === 401) this.metrics.unauthenticated.inc();
    else if (status === 403) this.metrics.forbidden.inc();
  }
}

/**
 * What became of provider webhooks, per provider: each event a delivery carried was `accepted`
 * (recorded and acted on), a `redelivery` (recorded before: nothing done), or `failed` (recorded, acting
 * on it failed: the relay takes it up); a delivery refused before anything was recorded counts once
 * as `refused_signature` (401, or 429 past the failure limit), `refused_payload` (400, 413) or `refused`.
 */
export class WebhookMeter {
  readonly accepted: CounterCell;
  readonly redelivery: CounterCell;
  readonly failed: CounterCell;
  private readonly refusedSignature: CounterCell;
  private readonly refusedPayload: CounterCell;
  private readonly refusedOther: CounterCell;

  constructor(family: CounterFamily, provider: WebhookProvider) {
    this.accepted = family.cell(provider, 'accepted');
    this.redelivery = family.cell(provider, 'redelivery');
    this.failed = family.cell(provider, 'failed');
    this.refusedSignature = family.cell(provider, 'refused_signature');
    this.refusedPayload = family.cell(provider, 'refused_payload');
    this.refusedOther = family.cell(provider, 'refused');
  }

  refused(status: number): void {
    if (status === 401 || status === 429) this.refusedSignature.inc();
    else if (status === 400 || status === 413) this.refusedPayload.inc();
    else this.refusedOther.inc();
  }
}

/**
 * The API process's metrics. Requests are counted where an operation runs, once for both doors (the
 * REST route and the tRPC procedure each made from the declaration), labelled by the operation's
 * name; routes no declaration makes (webhooks, OAuth, probes, public links) by their route template,
 * and anything that matched no route as `unmatched`. No label carries an id: the label sets are the
 * declarations, the routes, the statuses sent, the providers and the limits.
 */
export class ApiMetrics {
  readonly registry: Registry;
  readonly requests = new CounterFamily(
    'finops_http_requests_total',
    'Requests answered, by operation (its declared name, or the route template), door and status.',
    ['operation', 'door', 'status'],
  );
  private readonly latency = new HistogramFamily(
    'finops_http_request_duration_seconds',
    'Time from the door taking a request to its answer, by operation and door.',
    ['operation', 'door'],
    LATENCY_BUCKETS,
  );
  private readonly authRejections = new CounterFamily(
    'finops_auth_rejections_total',
    'Requests refused for their credential (unauthenticated: 401) or its rights (forbidden: 403).',
    ['reason'],
  );
  readonly unauthenticated = this.authRejections.cell('unauthenticated');
  readonly forbidden = this.authRejections.cell('forbidden');
  private readonly rateLimits = new CounterFamily(
    'finops_rate_limit_rejections_total',
    'Requests answered 429, by the limit that refused them.',
    ['limit'],
  );
  private readonly limitCells = new Map<Limit, CounterCell>(LIMITS.map((l) => [l, this.rateLimits.cell(l)]));
  private readonly webhooks = new CounterFamily(
    'finops_webhooks_total',
    'Provider webhooks: events accepted, redelivered or failed, and deliveries refused, by provider.',
    ['provider', 'outcome'],
  );
  private readonly routes = new Map<string, Map<string, RequestMeter>>();
  private readonly unmatched: RequestMeter;
  private readonly webhookAttempts: WebhookAttemptCounter;

  constructor(db: Db, opts: { processMetrics: boolean }) {
    this.registry = processRegistry(db, opts);
    for (const family of [this.requests, this.latency, this.authRejections, this.rateLimits, this.webhooks])
      family.registerIn(this.registry);
    this.unmatched = this.meter('unmatched', 'http');
    this.webhookAttempts = new WebhookAttemptCounter(this.registry);
    registerBacklogGauges(this.registry, db);
  }

  /** An outgoing webhook's first attempt, made by this process's delivery relay. */
  deliveryAttempt(outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.inc(outcome);
  }

  /** The meter of one door of one operation (or route): made at start-up, kept by the door. */
  meter(operation: string, door: Door): RequestMeter {
    return new RequestMeter(this, [operation, door], this.latency.cell(operation, door));
  }

  webhookMeter(provider: WebhookProvider): WebhookMeter {
    return new WebhookMeter(this.webhooks, provider);
  }

  rateLimited(limit: Limit): void {
    this.limitCells.get(limit)?.inc();
  }

  /**
   * Counts the requests no operation's door counted, by the route that served them. Outside the error
   * envelope, so the status is the one sent; a door that counted its request says so on the state.
   */
  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      const startedAt = performance.now();
      await next();
      if (ctx.state.metered) return;
      const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
      this.routeMeter(ctx.method, (ctx as { _matchedRoute?: unknown })._matchedRoute).record(status, startedAt);
    };
  }

  private routeMeter(method: string, route: unknown): RequestMeter {
    if (typeof route !== 'string') return this.unmatched;
    const verb = boundedMethod(method);
    let byMethod = this.routes.get(route);
    if (!byMethod) this.routes.set(route, (byMethod = new Map<string, RequestMeter>()));
    let meter = byMethod.get(verb);
    if (!meter) byMethod.set(verb, (meter = this.meter(`${verb} ${route}`, 'http')));
    return meter;
  }
}

/**
 * The outboxes' backlogs and lag, read from PostgreSQL when scraped: one query per scrape, shared
 * by the gauges it sets (the registry asks them all at once). A failed read leaves the last values.
 */
function registerBacklogGauges(registry: Registry, db: Db): void {
  let reading: { at: number; backlogs: Promise<Backlogs | undefined> } | undefined;
  const read = () => {
    const now = Date.now();
    if (!reading || now - reading.at > 1000) reading = { at: now, backlogs: readBacklogs(db).catch(() => undefined) };
    return reading.backlogs;
  };
  const OUTBOXES = [
    ['webhook_events', 'webhookEventsPending', 'webhookEventsOldestSeconds'],
    ['webhook_deliveries', 'webhookDeliveriesPending', 'webhookDeliveriesOldestSeconds'],
    ['notification_emails', 'notificationEmailsPending', 'notificationEmailsOldestSeconds'],
  ] as const;
  new Gauge({
    name: 'finops_outbox_pending',
    help: 'Rows waiting in an outbox: provider webhook events not yet acted on, webhook deliveries and notification emails no run has taken up.',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      const b = await read();
      if (b) for (const [outbox, pending] of OUTBOXES) this.set({ outbox }, b[pending]);
    },
  });
  new Gauge({
    name: 'finops_outbox_lag_seconds',
    help: 'Age of the oldest row waiting in an outbox (0 when it is empty).',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      const b = await read();
      if (b) for (const [outbox, , oldest] of OUTBOXES) this.set({ outbox }, b[oldest]);
    },
  });
  // Which endpoints fail is the deliveries list's to say: endpoint ids would make a series per endpoint.
  new Gauge({
    name: 'finops_webhook_endpoints_failing',
    help: 'Webhook endpoints by state: failing (enabled, recent attempts fail) and disabled (switched off after failing too long).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const b = await read();
      if (!b) return;
      this.set({ state: 'failing' }, b.webhookEndpointsFailing);
      this.set({ state: 'disabled' }, b.webhookEndpointsDisabled);
    },
  });
}
