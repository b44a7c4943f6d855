import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { eventPayload, type WebhookEventData, type WebhookEventType } from './event-types';

/** Notified (at commit) when deliveries were queued, so a relay starts them at once instead of at its next poll. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries_due';
/** Notified (at commit) with the team's id when a transaction wrote events: wakes that team's feed readers (long polls, streams). */
export const EVENTS_CHANNEL = 'events_committed';

/**
 * The one place domain changes become events. Call it with the transaction that makes the change:
 * the event goes into the team's log (`events`, read by GET /events) and, from that same row (its
 * id, its bytes), into one `pending` delivery per enabled endpoint of the team subscribed to the
 * type, so the event exists exactly when the change does (a rollback takes all of it). The relay
 * (api/outbox/webhook-delivery-relay.ts) starts each delivery's WebhookDelivery workflow as soon as
 * the transaction commits (NOTIFY), or at its next poll. One statement per call.
 */
export async function emitEvent<T extends WebhookEventType>(db: Db, teamId: string, type: T, data: WebhookEventData[T]): Promise<number> {
  return emitEvents(db, teamId, type, [data]);
}

/** Many events of one type in one statement. Returns how many deliveries were queued. */
export async function emitEvents<T extends WebhookEventType>(
  db: Db,
  teamId: string,
  type: T,
  data: readonly WebhookEventData[T][],
): Promise<number> {
  if (!data.length) return 0;
  const timestamp = new Date().toISOString();
  const payloads = data.map((d) => eventPayload(type, d, timestamp));
  const { sql, bindings } = logAndDeliver({
    teamId,
    type,
    source: { sql: 'select u.payload, u.ord from unnest(?::text[]) with ordinality as u(payload, ord)', bindings: [payloads] },
  });
  return deliveriesOf(await db.raw(sql, bindings));
}

interface Fragment {
  sql: string;
  bindings: readonly Knex.RawBinding[];
}

/**
 * The statement every emit is: `source` selects (payload, ord) in the order the events happened;
 * `before` may add CTEs it reads from (an import's insert). The events are written to the log, the
 * deliveries copied from the logged rows, and the two channels notified only when there is
 * something to wake for. The result's one row has `deliveries` and whatever `select` adds.
 */
function logAndDeliver(opts: { teamId: string; type: WebhookEventType; source: Fragment; before?: Fragment; select?: string }): Fragment {
  const { teamId, type, source, before } = opts;
  return {
    sql: `with ${before ? `${before.sql}, ` : ''}
     logged as (
       insert into events (team_id, type, payload)
       select ?::uuid, ?::text, src.payload from (${source.sql}) src order by src.ord
       returning id, payload
     ),
     queued as (
       insert into webhook_deliveries (team_id, endpoint_id, event_id, event_type, payload)
       select e.team_id, e.id, logged.id, ?::text, logged.payload
         from webhook_endpoints e
        cross join logged
        where e.team_id = ?::uuid and e.enabled and ?::text = any(e.event_types)
       returning 1
     )
     select q.n::int as deliveries${opts.select ? `, ${opts.select}` : ''},
            case when q.n > 0 then pg_notify(?, '') end as deliveries_due,
            case when exists (select 1 from logged) then pg_notify(?, ?::text) end as events_committed
       from (select count(*) as n from queued) q`,
    bindings: [
      ...(before?.bindings ?? []),
      teamId,
      type,
      ...source.bindings,
      type,
      teamId,
      type,
      WEBHOOK_DELIVERIES_CHANNEL,
      EVENTS_CHANNEL,
      teamId,
    ],
  };
}

type EmitResult = { rows: { deliveries: number }[] };
const deliveriesOf = (result: EmitResult) => result.rows[0]?.deliveries ?? 0;

type TransactionEventType = 'transaction.created' | 'transaction.updated' | 'transaction.deleted';

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
const transactionPayload = `json_build_object('type', ?::text, 'timestamp', ?::text, 'data', ${TRANSACTION_EVENT_DATA})::text`;

/**
 * `transaction.created` / `.updated` / `.deleted` for these transactions, read as they are now in the
 * caller's transaction (so a deletion's event is emitted before its delete). One statement however
 * many transactions (a page of a bank sync): PostgreSQL builds each payload from the row, so the rows
 * never travel to Node and back. Returns how many deliveries were queued.
 *
 * Each row is read by its primary key (a lateral read with a limit, which the planner cannot turn
 * into a join): as a join, a team whose rows grew since the table was last analysed (a first large
 * sync) was read whole for every page.
 */
export async function emitTransactionEvents(db: Db, teamId: string, type: TransactionEventType, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const { sql, bindings } = logAndDeliver({
    teamId,
    type,
    source: {
      sql: `select ${transactionPayload} as payload, i.ord
              from unnest(?::uuid[]) with ordinality as i(id, ord)
              join lateral (select * from transactions t where t.id = i.id and t.team_id = ? limit 1) t on true`,
      bindings: [type, new Date().toISOString(), [...ids], teamId],
    },
  });
  return deliveriesOf(await db.raw(sql, bindings));
}

/**
 * An insert into transactions (`… returning *`) and the `transaction.created` of every row it
 * inserted, in one statement: a 5,000-row import batch writes its rows and their events without the
 * new ids coming back to Node. Returns how many rows were inserted.
 */
export async function insertTransactionsWithEvents(db: Db, teamId: string, insert: Fragment): Promise<number> {
  const type = 'transaction.created';
  const { sql, bindings } = logAndDeliver({
    teamId,
    type,
    before: { sql: `inserted as (${insert.sql})`, bindings: insert.bindings },
    source: { sql: `select ${transactionPayload} as payload, t.date as ord from inserted t`, bindings: [type, new Date().toISOString()] },
    select: '(select count(*) from inserted)::int as inserted',
  });
  const result = await db.raw<{ rows: { inserted: number }[] }>(sql, bindings);
  return result.rows[0]?.inserted ?? 0;
}
