import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex';
import { WebhookEvent, type WebhookProvider } from '../../db/models';
import { runPrepared } from '../../db/prepared';

/** Who sends us webhooks: each has its own route, verifier and event keys. */
export const WEBHOOK_PROVIDERS = ['bank-a', 'bank-b', 'messaging', 'inbox', 'payments', 'subscriptions'] as const;
/** `received` until acted on; `failed` is claimed again by a redelivery. */
export const WEBHOOK_EVENT_OUTCOMES = ['received', 'processed', 'ignored', 'failed'] as const;

/** What acting on one provider event came to; the domain functions webhooks call return it. */
export interface WebhookOutcome {
  outcome: 'processed' | 'ignored';
  /** Only a team that exists (the column references teams). */
  teamId?: string | null;
  workflowId?: string | null;
}

/** Keys are the provider's ids: one that could not fit the unique index (an id of 900 KB) is stored as its hash. */
const MAX_KEY_CHARS = 200;
const storedKey = (key: string) => (key.length <= MAX_KEY_CHARS ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`);

/** Larger payloads are not kept for the relay (a provider event is a few kilobytes; a file never travels here). */
const MAX_PAYLOAD_CHARS = 256 * 1024;

/**
 * Records an event once per provider and key, with what acting on it needs, and claims it for
 * processing: the id to act under, or null for a redelivery of an event already received (a failed
 * one is claimed again, so a redelivery retries it at once).
 */
export async function claimWebhookEvent(
  db: Db,
  event: { provider: WebhookProvider; eventKey: string; eventType: string; payload: unknown },
): Promise<string | null> {
  const json = JSON.stringify(event.payload ?? null);
  // One statement, so two concurrent deliveries of the same event cannot both claim it.
  const rows = await runPrepared<{ id: string }>(db, CLAIM, [
    event.provider,
    storedKey(event.eventKey),
    event.eventType.slice(0, MAX_KEY_CHARS),
    json.length <= MAX_PAYLOAD_CHARS ? json : null,
  ]);
  return rows[0]?.id ?? null;
}

const CLAIM = {
  name: 'webhook_events.claim',
  text: `insert into webhook_events (provider, event_key, event_type, payload) values ($1, $2, $3, $4::jsonb)
     on conflict (provider, event_key) do update set outcome = 'received', error = null, received_at = now()
       where webhook_events.outcome = 'failed'
     returning id`,
};

export { recordWebhookOutcome } from './outcomes';

/** The relay's backoff: 5 s, 10 s, 20 s … capped at 10 minutes; it gives up after a day of trying. */
export const RELAY_MAX_ATTEMPTS = 150;
const backoffSeconds = (attempts: number) => Math.min(600, 5 * 2 ** Math.min(attempts, 10));

/** Marks the event failed with the error's message; the relay (or a redelivery) acts on it again later. */
export async function recordWebhookFailure(db: Db, id: string, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  const row = await WebhookEvent.query(db).findById(id).select('attempts');
  const wait = backoffSeconds(row?.attempts ?? 0);
  await WebhookEvent.query(db)
    .findById(id)
    .patch({
      outcome: 'failed',
      error: message.slice(0, 2000),
      processedAt: new Date(),
      nextAttemptAt: new Date(Date.now() + wait * 1000),
    });
}

export interface PendingWebhookEvent {
  id: string;
  provider: WebhookProvider;
  eventKey: string;
  eventType: string;
  payload: unknown;
  attempts: number;
}

/**
 * Claims events the relay should act on: failed ones whose backoff has passed, and received ones a
 * process took and never finished (it died mid-request). Skip-locked, so several API processes
 * share the work without taking the same event twice.
 */
export async function claimDueWebhookEvents(db: Db, opts: { limit: number; staleAfterS: number }): Promise<PendingWebhookEvent[]> {
  const { rows } = await db.raw<{ rows: PendingWebhookEvent[] }>(
    `update webhook_events e set outcome = 'received', attempts = e.attempts + 1, received_at = now(), next_attempt_at = null
      where e.id in (
        select id from webhook_events
         where payload is not null and attempts < ?
           and ((outcome = 'failed' and next_attempt_at <= now())
             or (outcome = 'received' and received_at < now() - make_interval(secs => ?)))
         order by received_at
         limit ?
         for update skip locked)
      returning e.id, e.provider, e.event_key as "eventKey", e.event_type as "eventType", e.payload, e.attempts`,
    [RELAY_MAX_ATTEMPTS, opts.staleAfterS, opts.limit],
  );
  return rows;
}
