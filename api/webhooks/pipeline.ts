import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import type { WebhookProvider } from '../../shared/db/models';
import { AppError, payloadTooLarge, unauthorized } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';

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

export interface HandledEvent {
  outcome: 'processed' | 'ignored';
  teamId?: string | null;
  workflowId?: string | null;
}

/**
 * How one provider's webhook is verified, parsed and acted on. The pipeline does the rest,
 * the same way for every provider (spec part 6, DESIGN §2).
 */
export interface WebhookSpec<P, E> {
  provider: WebhookProvider;
  maxBytes: number;
  /** Checks the signature on the raw text; false (or a throw) is 401 `Invalid signature`. */
  verify(req: RawWebhook): boolean | Promise<boolean>;
  schema: z.ZodType<P>;
  events(payload: P, req: RawWebhook): WebhookEventRef<E>[];
  /** Optional: refuse a valid delivery before anything is recorded (e.g. 404 for an unknown inbox). */
  precheck?(payload: P, deps: ApiDeps): Promise<void>;
  /** Small state changes, or starting/signalling a workflow: never a provider call or heavy work. */
  handle(ref: WebhookEventRef<E>, deps: ApiDeps, req: RawWebhook): Promise<HandledEvent>;
}

const invalidPayload = (details?: { field: string; message: string }[]) => new AppError(400, 'Bad Request', 'Invalid payload', details);

/**
 * raw body → signature → JSON + zod → record in webhook_events (redeliveries stop here) → act → 200.
 * A failure after validation is logged with the event id and still answers 200, as the spec asks;
 * the event stays recorded as `failed`, and a redelivery of a failed event is processed again.
 */
export function webhookHandler<P, E>(spec: WebhookSpec<P, E>, deps: ApiDeps): Middleware<AppState> {
  return async (ctx: Context & { state: AppState }) => {
    const req = await readRaw(ctx, spec.maxBytes);
    let verified = false;
    try {
      verified = await spec.verify(req);
    } catch (err) {
      ctx.state.log.warn({ err, provider: spec.provider }, 'webhook signature check failed');
    }
    if (!verified) throw unauthorized('Invalid signature');

    let json: unknown;
    try {
      json = JSON.parse(req.raw);
    } catch {
      throw invalidPayload([{ field: '(root)', message: 'body is not JSON' }]);
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      throw invalidPayload(parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message })));
    }

    await spec.precheck?.(parsed.data, deps);
    for (const ref of spec.events(parsed.data, req)) {
      await processEvent(spec, ref, deps, req, ctx.state.log);
    }
    ctx.status = 200;
    ctx.body = { success: true };
  };
}

async function processEvent<P, E>(spec: WebhookSpec<P, E>, ref: WebhookEventRef<E>, deps: ApiDeps, req: RawWebhook, log: AppState['log']) {
  const { db } = deps;
  const claimed = await db.raw(
    `insert into webhook_events (provider, event_key, event_type) values (?, ?, ?)
     on conflict (provider, event_key) do update set outcome = 'received', error = null, received_at = now()
       where webhook_events.outcome = 'failed'
     returning id`,
    [spec.provider, ref.key, ref.type],
  );
  const id: string | undefined = claimed.rows[0]?.id;
  if (!id) {
    log.info({ provider: spec.provider, eventKey: ref.key }, 'webhook redelivery ignored');
    return;
  }
  try {
    const result = await spec.handle(ref, deps, req);
    await db('webhook_events').where({ id }).update({
      outcome: result.outcome,
      teamId: result.teamId ?? null,
      workflowId: result.workflowId ?? null,
      processedAt: new Date(),
    });
  } catch (err) {
    log.error({ err, provider: spec.provider, eventId: id, eventKey: ref.key, eventType: ref.type }, 'webhook processing failed');
    await db('webhook_events')
      .where({ id })
      .update({ outcome: 'failed', error: String((err as Error)?.message ?? err).slice(0, 2000), processedAt: new Date() })
      .catch((e) => log.error({ err: e, eventId: id }, 'could not record webhook failure'));
  }
}

async function readRaw(ctx: Context, maxBytes: number): Promise<RawWebhook> {
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit: maxBytes, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw payloadTooLarge(`Webhook body larger than ${maxBytes} bytes`);
    throw err;
  }
  return { raw, headers: ctx.req.headers, ip: ctx.ip, query: ctx.query };
}
