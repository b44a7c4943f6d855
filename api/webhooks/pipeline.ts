import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import {
  claimWebhookEvent,
  type PendingWebhookEvent,
  recordWebhookFailure,
  recordWebhookOutcome,
  type WebhookOutcome,
  type WebhookProvider,
} from '../../shared/domain/webhook-events/record';
import { AppError, badRequest, payloadTooLarge, tooManyRequests, unauthorized } from '../../shared/errors';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { asActor, hasActor, type AuditActor } from '../../shared/db/team-wall';
import type { ApiDeps } from '../deps';
import { LONE_SURROGATE, parseJsonText } from '../http/json-body';
import { setJsonBody } from '../http/json-response';
import type { AppState } from '../http/state';
import { statusOfError } from '../http/error-envelope';
import type { WebhookMeter } from '../metrics';

export interface RawWebhook {
  raw: string;
  headers: IncomingHttpHeaders;
  ip: string;
  query: Record<string, string | string[] | undefined>;
}

/** One event inside a delivery (a messaging delivery can carry several messages). */
export interface WebhookEventRef<E> {
  /** Unique per provider: a redelivery carries the same key and is not acted on twice. */
  key: string;
  type: string;
  event: E;
}

/**
 * How one provider's webhook is verified, parsed and acted on. The pipeline does the rest,
 * the same way for every provider.
 */
export interface WebhookSpec<P, E> {
  provider: WebhookProvider;
  maxBytes: number;
  /**
   * Optional: credentials carried by the headers (Basic auth, an IP allow-list), checked before a
   * byte of the body is read; false is 401. A body signature can only be checked in `verify`.
   */
  preauthorize?(req: Pick<RawWebhook, 'headers' | 'ip'>): boolean;
  /** Checks the signature on the raw text; false (or a throw) is 401 `Invalid signature`. */
  verify(req: RawWebhook): boolean | Promise<boolean>;
  schema: z.ZodType<P>;
  /**
   * The events a delivery carries, as they are recorded and acted on (also later, by the relay):
   * small and self-contained. A step that must happen before the provider is told 200 (keeping an
   * attachment's bytes) happens here.
   */
  events(payload: P, req: RawWebhook): WebhookEventRef<E>[] | Promise<WebhookEventRef<E>[]>;
  /** Optional: refuse a valid delivery before anything is recorded (e.g. 404 for an unknown inbox). */
  precheck?(payload: P, deps: ApiDeps): Promise<void>;
  /** One call into shared/domain: a small state change, or starting/signalling a workflow; never a provider call or heavy work. */
  handle(ref: WebhookEventRef<E>, deps: ApiDeps): Promise<WebhookOutcome>;
}

const invalidPayload = (details?: { field: string; message: string }[]) => new AppError(400, 'Bad Request', 'Invalid payload', details);

/**
 * The body through the gateway's one JSON parse (refusing text nested deeper than any provider
 * sends: what follows walks the value recursively). PostgreSQL cannot store NUL in text nor a lone
 * surrogate in jsonb, and no provider means either: NUL is dropped and a lone surrogate becomes
 * U+FFFD (as UTF-8 encoding would) before validation, so the event is still recorded and acted on.
 * JSON text can only carry either as a `\u` escape (a raw control character is invalid JSON, and
 * decoding UTF-8 never yields a lone surrogate), so a body without one is kept as it is.
 */
function parseStorable(raw: string): unknown {
  const value = parseJsonText(raw);
  return raw.includes('\\u') ? storable(value) : value;
}

function storable(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(storable);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)]));
  return value;
}

/**
 * (header credentials →) raw body → signature → JSON + zod → record in webhook_events (redeliveries
 * stop here) → act → 200. A failure after validation is logged with the event id and still answers
 * 200, since retrying it is ours to do, not the provider's: the event stays recorded as `failed` with
 * its payload, and the relay (or a redelivery) acts on it again.
 *
 * Failed credentials count against the sender's address, and past the limit a failure answers 429
 * instead of 401. The counter is read only when a delivery fails: a correctly signed one proves its
 * sender and is never throttled (a provider sharing an address with a guesser keeps delivering), and
 * the common case costs no rate-limit query.
 */
export function webhookHandler<P, E>(spec: WebhookSpec<P, E>, deps: ApiDeps, failures: RateLimiterAbstract): Middleware<AppState> {
  const perMinute = deps.config.AUTH_FAILURES_PER_MINUTE;
  const refuse = async (ctx: Context & { state: AppState }) => {
    const counted = await failures.penalty(`ip:${ctx.ip}`, 1).catch(() => null);
    if (counted && counted.consumedPoints > perMinute) {
      deps.metrics.rateLimited('webhook_failures');
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(counted.msBeforeNext / 1000))));
      return tooManyRequests('Too many failed webhook deliveries from this address');
    }
    return unauthorized('Invalid signature');
  };
  const meter = deps.metrics.webhookMeter(spec.provider);
  return async (ctx: Context & { state: AppState }) => {
    try {
      await receive(spec, deps, ctx, refuse, meter);
    } catch (err) {
      meter.refused(statusOfError(err));
      throw err;
    }
  };
}

async function receive<P, E>(
  spec: WebhookSpec<P, E>,
  deps: ApiDeps,
  ctx: Context & { state: AppState },
  refuse: (ctx: Context & { state: AppState }) => Promise<AppError>,
  meter: WebhookMeter,
): Promise<void> {
  if (spec.preauthorize && !spec.preauthorize({ headers: ctx.req.headers, ip: ctx.ip })) throw await refuse(ctx);
  const req = await readRaw(ctx, spec.maxBytes);
  let verified = false;
  try {
    verified = await spec.verify(req);
  } catch (err) {
    ctx.state.log.warn({ err, provider: spec.provider }, 'webhook signature check failed');
  }
  if (!verified) throw await refuse(ctx);

  let json: unknown;
  try {
    json = parseStorable(req.raw);
  } catch (err) {
    if (err instanceof AppError) throw invalidPayload(err.details);
    throw err;
  }
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) {
    throw invalidPayload(parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message })));
  }

  await spec.precheck?.(parsed.data, deps);
  for (const ref of await spec.events(parsed.data, req)) {
    await asActor(webhookActor(spec.provider, ref.key, { req: ctx.state.requestId, ip: ctx.ip }), () =>
      processEvent(spec, ref, deps, ctx.state, meter),
    );
  }
  ctx.status = 200;
  setJsonBody(ctx, { success: true });
}

// The request's state rather than its logger: the logger is made when first used (http/access-log.ts),
// and a delivery acted on without trouble logs nothing.
async function processEvent<P, E>(
  spec: WebhookSpec<P, E>,
  ref: WebhookEventRef<E>,
  deps: ApiDeps,
  state: Pick<AppState, 'log'>,
  meter: WebhookMeter,
) {
  const { db } = deps;
  const id = await claimWebhookEvent(db, { provider: spec.provider, eventKey: ref.key, eventType: ref.type, payload: ref.event });
  if (!id) {
    meter.redelivery.inc();
    state.log.info({ provider: spec.provider, eventKey: ref.key }, 'webhook redelivery ignored');
    return;
  }
  if (await actOn(spec, ref, id, deps, state)) meter.accepted.inc();
  else meter.failed.inc();
}

/**
 * Acts on one recorded event and records how it went; the request path and the relay both come here.
 * False when acting on it failed (it stays recorded as failed, for the relay).
 */
export async function actOn<P, E>(
  spec: WebhookSpec<P, E>,
  ref: WebhookEventRef<E>,
  id: string,
  deps: ApiDeps,
  state: Pick<AppState, 'log'>,
): Promise<boolean> {
  // The relay comes here without a request: its writes are still the provider's event's.
  if (!hasActor()) return asActor(webhookActor(spec.provider, ref.key, {}), () => actOn(spec, ref, id, deps, state));
  try {
    await recordWebhookOutcome(deps.db, id, await spec.handle(ref, deps));
    return true;
  } catch (err) {
    const { log } = state;
    log.error({ err, provider: spec.provider, eventId: id, eventKey: ref.key, eventType: ref.type }, 'webhook processing failed');
    await recordWebhookFailure(deps.db, id, err).catch((e: unknown) => {
      log.error({ err: e, eventId: id }, 'could not record webhook failure');
    });
    return false;
  }
}

/** A provider's event as the audit trail's actor: the provider, and the event it delivered. */
const webhookActor = (provider: WebhookProvider, eventKey: string, request: { req?: string; ip?: string }): AuditActor => ({
  op: `webhook:${provider}`,
  actor: 'provider',
  actorId: provider,
  cred: 'webhook',
  credId: eventKey,
  ...request,
});

async function readRaw(ctx: Context, maxBytes: number): Promise<RawWebhook> {
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit: maxBytes, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw payloadTooLarge(`Webhook body larger than ${maxBytes} bytes`);
    // The sender hung up before its body arrived (or sent a broken one): nothing was accepted, and
    // a provider redelivers what was not answered 200. A 400, not a server error.
    throw badRequest('The request body could not be read');
  }
  return new ReceivedWebhook(raw, ctx);
}

/**
 * The address and query are read by the few providers that need them, when they do. A class rather
 * than an object literal with getters, for the reason `requestInfoOf` gives (api/operations/declare.ts):
 * such a literal kept each delivery's request alive until a full collection.
 */
class ReceivedWebhook implements RawWebhook {
  readonly headers: IncomingHttpHeaders;

  constructor(
    readonly raw: string,
    private readonly ctx: Context,
  ) {
    this.headers = ctx.req.headers;
  }

  get ip(): string {
    return this.ctx.ip;
  }

  get query(): RawWebhook['query'] {
    return this.ctx.query;
  }
}

/** A provider's webhook as the gateway serves it and as the relay replays its recorded events. */
export interface MountedWebhook {
  provider: WebhookProvider;
  /** What a delivery's body must be (for the reference and for fuzzing). */
  schema: z.ZodType;
  middleware: Middleware<AppState>;
  /** Acts again on an event the relay claimed, from its recorded payload. */
  replay(event: PendingWebhookEvent, log: AppState['log']): Promise<boolean>;
}

export function mountWebhook<P, E>(spec: WebhookSpec<P, E>, deps: ApiDeps, failures: RateLimiterAbstract): MountedWebhook {
  return {
    provider: spec.provider,
    schema: spec.schema,
    middleware: webhookHandler(spec, deps, failures),
    // The payload is what `events` produced for this spec, recorded as JSON: plain data of type E.
    replay: (e, log) => actOn(spec, { key: e.eventKey, type: e.eventType, event: e.payload as E }, e.id, deps, { log }),
  };
}
