import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import { eventPayload, type WebhookEventData, type WebhookEventType } from './event-types';

/** Notified (at commit) when deliveries were queued, so a relay starts them at once instead of at its next poll. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries_due';

/**
 * The one place domain changes become webhooks out. Call it with the transaction that makes the
 * change: it adds one `pending` delivery per enabled endpoint of the team subscribed to the type, so
 * the event exists exactly when the change does (a rollback takes both). The relay
 * (api/outbox/webhook-delivery-relay.ts) starts each delivery's WebhookDelivery workflow as soon as
 * the transaction commits (NOTIFY), or at its next poll.
 * A team without subscribed endpoints pays one indexed query.
 */
export async function emitEvent<T extends WebhookEventType>(db: Db, teamId: string, type: T, data: WebhookEventData[T]): Promise<number> {
  return emitEvents(db, teamId, type, [data]);
}

/** Many events of one type in one statement (a page of a bank sync). Returns how many deliveries were queued. */
export async function emitEvents<T extends WebhookEventType>(
  db: Db,
  teamId: string,
  type: T,
  data: readonly WebhookEventData[T][],
): Promise<number> {
  if (!data.length) return 0;
  if (data.length > 1 && !(await hasSubscribers(db, teamId, type))) return 0;
  return queueDeliveries(db, teamId, type, data);
}

/** One delivery per subscribed endpoint and event, in one statement; a single event needs no subscriber check first. */
async function queueDeliveries<T extends WebhookEventType>(
  db: Db,
  teamId: string,
  type: T,
  data: readonly WebhookEventData[T][],
): Promise<number> {
  const timestamp = new Date().toISOString();
  const events = data.map((d) => ({ id: randomUUID(), payload: eventPayload(type, d, timestamp) }));
  const result = await db.raw<{ rowCount: number }>(
    `insert into webhook_deliveries (team_id, endpoint_id, event_id, event_type, payload)
     select e.team_id, e.id, ev.event_id, ?, ev.payload
       from webhook_endpoints e
      cross join unnest(?::uuid[], ?::text[]) as ev(event_id, payload)
      where e.team_id = ? and e.enabled and ? = any(e.event_types)`,
    [type, events.map((e) => e.id), events.map((e) => e.payload), teamId, type],
  );
  if (result.rowCount) await notifyDue(db);
  return result.rowCount;
}

const notifyDue = (db: Db) => db.raw(`select pg_notify(?, '')`, [WEBHOOK_DELIVERIES_CHANNEL]);

/** Whether any enabled endpoint of the team listens to this type: one indexed query. */
export async function hasSubscribers(db: Db, teamId: string, type: WebhookEventType): Promise<boolean> {
  const row = await db('webhook_endpoints')
    .where({ teamId, enabled: true })
    .whereRaw('? = any(event_types)', [type])
    .first<{ id: string } | undefined>('id');
  return Boolean(row);
}

type TransactionEventType = 'transaction.created' | 'transaction.updated' | 'transaction.deleted';

/**
 * `transaction.created` / `.updated` / `.deleted` for these transactions, read as they are now in the
 * caller's transaction (so a deletion's event is emitted before its delete). Nothing is read when no
 * endpoint of the team listens (the sync's hot path).
 */
export async function emitTransactionEvents(db: Db, teamId: string, type: TransactionEventType, ids: readonly string[]): Promise<number> {
  if (!ids.length || !(await hasSubscribers(db, teamId, type))) return 0;
  return queueTransactionEvents(db, teamId, type, ids);
}

/** Each field of a transaction event as SQL over `transactions t` (a Record: a field added to the type without its SQL fails to compile). */
const TRANSACTION_EVENT_FIELDS: Record<keyof WebhookEventData['transaction.created'], string> = {
  id: 't.id',
  date: 't.date',
  name: 't.name',
  // As a JSON number the way JavaScript writes it (-23.5), not numeric's -23.5000.
  amount: 't.amount::float8',
  currency: 't.currency',
  status: 't.status',
  bankAccountId: 't.bank_account_id',
  manual: 't.manual',
};
const TRANSACTION_EVENT_DATA = `json_build_object(${Object.entries(TRANSACTION_EVENT_FIELDS)
  .map(([key, sql]) => `'${key}', ${sql}`)
  .join(', ')})`;

/**
 * As emitTransactionEvents for a caller that has already asked hasSubscribers (an import asks once,
 * not per batch). One statement however many transactions: the payload is built by PostgreSQL from
 * the rows, so a 5,000-row import batch never travels to Node and back. The event ids are drawn
 * once per transaction (materialized) so that every endpoint gets the same event, as queueDeliveries does.
 */
export async function queueTransactionEvents(db: Db, teamId: string, type: TransactionEventType, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const result = await db.raw<{ rowCount: number }>(
    `with ev as materialized (
       select gen_random_uuid() as event_id,
              json_build_object('type', ?::text, 'timestamp', ?::text, 'data', ${TRANSACTION_EVENT_DATA})::text as payload
         from transactions t
        where t.team_id = ? and t.id = any(?::uuid[])
     )
     insert into webhook_deliveries (team_id, endpoint_id, event_id, event_type, payload)
     select e.team_id, e.id, ev.event_id, ?, ev.payload
       from webhook_endpoints e
      cross join ev
      where e.team_id = ? and e.enabled and ? = any(e.event_types)`,
    [type, new Date().toISOString(), teamId, [...ids], type, teamId, type],
  );
  if (result.rowCount) await notifyDue(db);
  return result.rowCount;
}
