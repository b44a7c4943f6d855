import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex';
import { WebhookEvent, type WebhookProvider } from '../../db/models';
import { groupedStatement } from '../../db/grouped';
import { runPrepared } from '../../db/prepared';

// The gateway's routes name their provider with this: api/ sees the domain, not the models.
export type { WebhookProvider };

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

const slot = (provider: string, key: string) => `${provider}\n${key}`;

interface Claim {
  provider: WebhookProvider;
  key: string;
  type: string;
  payload: string | null;
}

/**
 * Records events once per provider and key, with what acting on them needs, and claims them for
 * processing: each claim's id to act under, or null for a redelivery of an event already received
 * (a failed one is claimed again, so a redelivery retries it at once). One statement for the
 * deliveries that arrive together (shared/db/grouped.ts); a key twice in one group is claimed by its
 * first delivery, as two statements one after the other would, and a statement cannot touch a row
 * twice. Across processes, the unique key decides.
 */
const claimGroup = groupedStatement<Claim, string | null>(
  async (db, claims) => {
    const slots = claims.map((c) => slot(c.provider, c.key));
    const first = new Map<string, Claim>();
    claims.forEach((c, i) => first.has(slots[i]) || first.set(slots[i], c));
    const sent = [...first.values()];
    const rows = await runPrepared<{ id: string; provider: WebhookProvider; key: string }>(db, CLAIM, [
      sent.map((c) => c.provider),
      sent.map((c) => c.key),
      sent.map((c) => c.type),
      sent.map((c) => c.payload),
    ]);
    const ids = new Map(rows.map((r) => [slot(r.provider, r.key), r.id]));
    return claims.map((c, i) => (first.get(slots[i]) === c ? (ids.get(slots[i]) ?? null) : null));
  },
  // A payload is kept up to 256 KB, a provider's event is a few: a statement's parameters stay small.
  { most: 100 },
);

const CLAIM = {
  name: 'webhook_events.claim',
  text: `insert into webhook_events (provider, event_key, event_type, payload)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
     on conflict (provider, event_key) do update set outcome = 'received', error = null, received_at = now()
       where webhook_events.outcome = 'failed'
     returning id, provider, event_key as key`,
};

/** Records and claims one provider event (see claimGroup): its id to act under, or null for a redelivery. */
export function claimWebhookEvent(
  db: Db,
  event: { provider: WebhookProvider; eventKey: string; eventType: string; payload: unknown },
): Promise<string | null> {
  const json = JSON.stringify(event.payload ?? null);
  return claimGroup(db, {
    provider: event.provider,
    key: storedKey(event.eventKey),
    type: event.eventType.slice(0, MAX_KEY_CHARS),
    payload: json.length <= MAX_PAYLOAD_CHARS ? json : null,
  });
}

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
