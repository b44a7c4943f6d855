import type { Db } from '../../db/knex';
import type { RetentionKind } from '../../temporal/retention/contract';
import { IDEMPOTENCY_WINDOW_HOURS } from '../idempotency/keys';

/**
 * One batch of one kind: a single statement that removes at most `limit` rows older than the
 * window and returns how many it removed (fewer than `limit`: the kind is done). Every statement
 * takes its rows `for update skip locked` where a row may be in use, so a prune never waits on, nor
 * is waited on by, a request or a run working on the same row; what it skips is pruned next time.
 *
 * What stays, whatever its age:
 * - webhook events not acted on for good (received, failed): the relay still needs their payload;
 *   the rows themselves stay too, since their key is what makes a redelivery a no-op;
 * - attempts of a delivery not finished (pending, starting, running): its run reads them;
 * - a notification someone it is addressed to has not read (or archived), or with an email not sent yet;
 * - an authorization code a token still points at;
 * - any token of a family while one of its tokens is still valid (an old refresh token presented
 *   again is how reuse is detected, which revokes the family).
 * Audit entries are not among the kinds: nothing here reads or deletes them.
 */
const STATEMENTS: Record<Exclude<RetentionKind, 'idempotency_keys'>, string> = {
  webhook_payloads: `
    update webhook_events set payload = null
     where id in (select id from webhook_events
                   where payload is not null and outcome in ('processed', 'ignored')
                     and processed_at < now() - make_interval(secs => :windowS)
                   limit :limit for update skip locked)`,
  delivery_attempts: `
    delete from webhook_delivery_attempts
     where id in (select a.id from webhook_delivery_attempts a
                    join webhook_deliveries d on d.id = a.delivery_id
                   where a.created_at < now() - make_interval(secs => :windowS)
                     and d.status in ('delivered', 'failed')
                   limit :limit for update of a skip locked)`,
  read_notifications: `
    delete from notifications
     where id in (select n.id from notifications n
                   where n.created_at < now() - make_interval(secs => :windowS)
                     and not exists (select 1 from notification_deliveries d
                                      where d.notification_id = n.id and d.status in ('pending', 'started', 'sending'))
                     and not exists (select 1 from team_members m
                                      where m.team_id = n.team_id and (n.user_id is null or m.user_id = n.user_id)
                                        and not exists (select 1 from notification_states s
                                                         where s.notification_id = n.id and s.user_id = m.user_id
                                                           and s.status in ('read', 'archived')))
                   limit :limit for update of n skip locked)`,
  invoice_links: `
    delete from invoice_links
     where id in (select id from invoice_links
                   where revoked_at < now() - make_interval(secs => :windowS)
                   limit :limit for update skip locked)`,
  authorization_codes: `
    delete from oauth_authorization_codes
     where id in (select c.id from oauth_authorization_codes c
                   where c.expires_at < now() - make_interval(secs => :windowS)
                     and not exists (select 1 from oauth_tokens t where t.authorization_code_id = c.id)
                   limit :limit for update of c skip locked)`,
  oauth_tokens: `
    delete from oauth_tokens
     where family_id in (select family_id from oauth_tokens
                          group by family_id
                         having max(least(coalesce(revoked_at, 'infinity'), greatest(expires_at, coalesce(refresh_expires_at, expires_at))))
                                < now() - make_interval(secs => :windowS)
                          limit :limit)`,
};

// Keys are spent once their window is over; an in-progress one that old lost its request long ago.
const EXPIRED_IDEMPOTENCY_KEYS = `
    delete from idempotency_keys
     where id in (select id from idempotency_keys
                   where created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS}) - make_interval(secs => :windowS)
                   limit :limit for update skip locked)`;

/** Removes one batch of `kind` older than `windowMs` (for idempotency keys: that long past their expiry). */
export async function pruneBatch(db: Db, kind: RetentionKind, opts: { windowMs: number; limit: number }): Promise<number> {
  const sql = kind === 'idempotency_keys' ? EXPIRED_IDEMPOTENCY_KEYS : STATEMENTS[kind];
  const result = await db.raw<{ rowCount: number | null }>(sql, { windowS: Math.floor(opts.windowMs / 1000), limit: opts.limit });
  return result.rowCount ?? 0;
}

/**
 * Prunes `kind` batch after batch until a batch comes back short, calling `onBatch` with the running
 * total after each (the activity heartbeats it). Stops early, with what it removed, when `signal` aborts.
 */
export async function pruneAll(
  db: Db,
  kind: RetentionKind,
  opts: { windowMs: number; limit: number; signal?: AbortSignal; onBatch?: (removed: number) => void },
): Promise<number> {
  let removed = 0;
  for (;;) {
    opts.signal?.throwIfAborted();
    const n = await pruneBatch(db, kind, opts);
    removed += n;
    opts.onBatch?.(removed);
    if (n < opts.limit) return removed;
  }
}
