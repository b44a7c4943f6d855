import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from '../../db/models';
import { dbNow } from '../../db/timestamps';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { startWebhookDelivery } from '../../temporal/webhook-delivery/calls';
import type { WebhookAttemptReport, WebhookRetryPolicy } from '../../temporal/webhook-delivery/contract';
import { decrypt, keyringOf } from '../crypto/encryption';
import { notify } from '../notifications/service';
import { postWebhook, type AttemptResult } from './send';
import { signedHeaders } from './signing';

/**
 * The delivery outbox. A delivery is `pending` from the transaction that emitted it until a relay
 * claims it (`starting`). The relay makes the first attempt itself (most succeed: no workflow); when
 * it fails, the row stays `starting` until the relay has started a WebhookDelivery run to go on from
 * the second attempt (`running`); the run's attempts end it `delivered` or `failed`. A replay puts a
 * finished delivery back to `starting` and starts a run from a first attempt. A claim lost with its
 * process (mid-attempt, or before its start) leaves the row `starting`; after `staleAfterS` a relay
 * claims it again and starts a run for it without an attempt of its own, as that process may have
 * started one already: the workflow id makes that start find the run if there is one.
 */

export interface DueDelivery {
  deliveryId: string;
  teamId: string;
  endpointId: string;
  /** The event and the endpoint's URL, for the run's summary; the URL is null once the endpoint is gone. */
  eventType: string;
  url: string | null;
  /** Claimed from `pending`: no process has had it yet, so the relay may attempt it itself. */
  fresh: boolean;
}

export async function claimDueWebhookDeliveries(db: Db, opts: { limit: number; staleAfterS: number }): Promise<DueDelivery[]> {
  const { rows } = await db.raw<{
    rows: { id: string; team_id: string; endpoint_id: string; event_type: string; url: string | null; fresh: boolean }[];
  }>(
    `with due as (
       select id, status = 'pending' as fresh from webhook_deliveries
        where status = 'pending' or (status = 'starting' and claimed_at < now() - make_interval(secs => ?))
        order by created_at
        limit ?
        for update skip locked)
     update webhook_deliveries d set status = 'starting', claimed_at = now(), updated_at = now()
       from due where d.id = due.id
     returning d.id, d.team_id, d.endpoint_id, d.event_type, due.fresh,
       (select e.url from webhook_endpoints e where e.id = d.endpoint_id and e.team_id = d.team_id) as url`,
    [opts.staleAfterS, opts.limit],
  );
  return rows.map((r) => ({
    deliveryId: r.id,
    teamId: r.team_id,
    endpointId: r.endpoint_id,
    eventType: r.event_type,
    url: r.url,
    fresh: r.fresh,
  }));
}

export const webhookRetryPolicy = (config: Config): WebhookRetryPolicy => ({
  initialIntervalMs: config.WEBHOOK_RETRY_INITIAL_INTERVAL,
  maxIntervalMs: config.WEBHOOK_RETRY_MAX_INTERVAL,
  windowMs: config.WEBHOOK_RETRY_WINDOW,
  attemptTimeoutMs: config.WEBHOOK_TIMEOUT,
});

/**
 * Starts the run of a claimed delivery and marks it `running`; when Temporal cannot be reached the
 * claim is released (`pending`) for the relay's next pass. Returns whether it started.
 */
export async function startClaimedDelivery(
  deps: { db: Db; temporal: TemporalGateway; config: Config; logger: Logger },
  due: Omit<DueDelivery, 'fresh'>,
): Promise<boolean> {
  try {
    const { deliveryId, teamId, endpointId } = due;
    await startWebhookDelivery(deps.temporal, { deliveryId, teamId, endpointId, retry: webhookRetryPolicy(deps.config) }, due);
  } catch (err) {
    deps.logger.warn({ err, deliveryId: due.deliveryId }, 'could not start a webhook delivery; it stays due');
    await WebhookDelivery.query(deps.db).where({ id: due.deliveryId, status: 'starting' }).patch({ status: 'pending', claimedAt: null });
    return false;
  }
  await markRunning(deps.db, due.deliveryId);
  return true;
}

// The run may have finished its first attempt already: only a delivery still `starting` moves.
const markRunning = (db: Db, deliveryId: string) =>
  WebhookDelivery.query(db).where({ id: deliveryId, status: 'starting' }).patch({ status: 'running', updatedAt: new Date() });

/** What the relay did with a claimed delivery. */
export type RelayedDelivery = 'delivered' | 'abandoned' | 'handed_over' | 'started' | 'left_due';

/**
 * The relay's part in a claimed delivery. A fresh one it attempts itself: delivered (or given up)
 * is the end of it; a failure starts a run that goes on from the second attempt after the first
 * wait. A stale one (a process lost it mid-attempt or before its start) and one whose attempt broke
 * (the database, not the endpoint) get a run from a first attempt, as before. A run that cannot be
 * started after a failed attempt leaves the row `starting`, for a relay to claim again once stale:
 * released at once it would be attempted again at the next pass, ignoring the backoff.
 */
export async function relayClaimedDelivery(
  deps: { db: Db; temporal: TemporalGateway; config: Config; logger: Logger; onAttempt?: (report: WebhookAttemptReport) => void },
  due: DueDelivery,
): Promise<RelayedDelivery> {
  if (!due.fresh) return (await startClaimedDelivery(deps, due)) ? 'started' : 'left_due';
  let report: WebhookAttemptReport;
  try {
    report = await attemptWebhookDelivery(deps, due.deliveryId, () => new Date(), { whileClaimed: true });
  } catch (err) {
    deps.logger.warn({ err, deliveryId: due.deliveryId }, 'webhook delivery attempt broke; handing it to a run');
    return (await startClaimedDelivery(deps, due)) ? 'started' : 'left_due';
  }
  deps.onAttempt?.(report);
  if (report.outcome !== 'failed') return report.outcome;
  const { deliveryId, teamId, endpointId } = due;
  const retry = webhookRetryPolicy(deps.config);
  const continueFrom = {
    attempts: 1,
    lastStatusCode: report.statusCode,
    nextAttemptAt: new Date(Date.now() + retry.initialIntervalMs).toISOString(),
  };
  try {
    await startWebhookDelivery(deps.temporal, { deliveryId, teamId, endpointId, retry, continueFrom }, due);
  } catch (err) {
    deps.logger.warn(
      { err, deliveryId },
      'could not start a webhook delivery after its first attempt; it is due again once its claim is stale',
    );
    return 'left_due';
  }
  await markRunning(deps.db, deliveryId);
  return 'handed_over';
}

interface DeliveryToSend {
  id: string;
  teamId: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  payload: string;
  url: string;
  secretEncrypted: string;
  enabled: boolean;
}

/**
 * One attempt of a delivery, for its workflow's activity: sign (the delivery id as `webhook-id`, a
 * fresh timestamp), POST, and record the attempt with the delivery's and endpoint's new state in
 * one transaction. A delivery already `delivered` is not sent again (an attempt whose completion was
 * lost with its worker); one whose endpoint is gone or disabled is given up.
 */
export async function attemptWebhookDelivery(
  deps: { db: Db; config: Config },
  deliveryId: string,
  now: () => Date = () => new Date(),
  opts: {
    /**
     * The relay's attempt of a row it claimed: a failure leaves it `starting` (claimed afresh) until
     * its run has started, so that a relay lost before that start is followed by another.
     */
    whileClaimed?: boolean;
  } = {},
): Promise<WebhookAttemptReport> {
  const { db, config } = deps;
  const row = await db('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where('d.id', deliveryId)
    .first<DeliveryToSend | undefined>(
      'd.id',
      'd.team_id',
      'd.status',
      'd.attempts',
      'd.last_status_code',
      'd.payload',
      'e.url',
      'e.secret_encrypted',
      'e.enabled',
    );
  if (!row) return { outcome: 'abandoned', attempt: null, statusCode: null };
  // Delivered by an attempt whose completion never reached the workflow (its worker was lost, or it
  // outran its timeout): report that attempt again, so the run counts it and knows its answer.
  if (row.status === 'delivered') return { outcome: 'delivered', attempt: row.attempts, statusCode: row.lastStatusCode };
  if (!row.enabled) {
    await giveUpWebhookDelivery(db, deliveryId);
    return { outcome: 'abandoned', attempt: null, statusCode: null };
  }
  const secret = decrypt(row.secretEncrypted, keyringOf(config));
  const result = await postWebhook({
    url: row.url,
    headers: signedHeaders(secret, row.id, now(), row.payload),
    body: row.payload,
    timeoutMs: config.WEBHOOK_TIMEOUT,
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
  });
  return recordAttempt(db, row, result, config.WEBHOOK_DISABLE_AFTER, opts.whileClaimed ?? false);
}

async function recordAttempt(
  db: Db,
  delivery: Pick<DeliveryToSend, 'id' | 'teamId'>,
  result: AttemptResult,
  disableAfterMs: number,
  whileClaimed: boolean,
): Promise<WebhookAttemptReport> {
  const ok = result.error === null;
  if (ok) return recordDelivered(db, delivery, result);
  return db.transaction(async (trx) => {
    const current = await WebhookDelivery.query(trx).findById(delivery.id).forUpdate().select('attempts', 'endpointId');
    if (!current) return { outcome: 'abandoned', attempt: null, statusCode: result.statusCode };
    const attempt = current.attempts + 1;
    await WebhookDeliveryAttempt.query(trx).insert({ teamId: delivery.teamId, deliveryId: delivery.id, attempt, ...result });
    await WebhookDelivery.query(trx)
      .findById(delivery.id)
      .patch({
        attempts: attempt,
        lastStatusCode: result.statusCode,
        status: whileClaimed ? 'starting' : 'running',
        ...(whileClaimed ? { claimedAt: dbNow() } : {}),
        deliveredAt: null,
        updatedAt: dbNow(),
      });
    const disabled = await disableIfFailingTooLong(trx, current.endpointId, disableAfterMs, result.error);
    if (!disabled) return { outcome: 'failed', attempt, statusCode: result.statusCode };
    await giveUpWebhookDelivery(trx, delivery.id);
    return { outcome: 'abandoned', attempt, statusCode: result.statusCode };
  });
}

/**
 * A successful attempt, recorded in one statement: most attempts succeed, and the relay makes them
 * in the API process, whose pool and event loop the requests share. Only an endpoint that was
 * failing is written: a healthy one's row is left unlocked, or every concurrent success to it would
 * queue on that lock, holding its transaction (and the event feed's horizon) open meanwhile.
 */
async function recordDelivered(
  db: Db,
  delivery: Pick<DeliveryToSend, 'id' | 'teamId'>,
  result: AttemptResult,
): Promise<WebhookAttemptReport> {
  const { rows } = await db.raw<{ rows: { attempt: number }[] }>(
    `with cur as (select id, attempts + 1 as attempt, endpoint_id from webhook_deliveries where id = ? for update),
          logged as (insert into webhook_delivery_attempts (team_id, delivery_id, attempt, status_code, response_body, duration_ms, error)
                      select ?, id, attempt, ?, ?, ?, null from cur),
          healed as (update webhook_endpoints e set failing_since = null from cur
                      where e.id = cur.endpoint_id and e.failing_since is not null)
     update webhook_deliveries d set attempts = cur.attempt, last_status_code = ?, status = 'delivered',
            delivered_at = now(), updated_at = now()
       from cur where d.id = cur.id
     returning cur.attempt`,
    [delivery.id, delivery.teamId, result.statusCode, result.responseBody, result.durationMs, result.statusCode],
  );
  const attempt = rows.at(0)?.attempt;
  if (attempt === undefined) return { outcome: 'abandoned', attempt: null, statusCode: result.statusCode };
  return { outcome: 'delivered', attempt, statusCode: result.statusCode };
}

/**
 * Failing since the first failure after the last success; past `disableAfterMs` the endpoint is
 * disabled and the team told, once (the row lock makes the change, and so the notice, happen once).
 */
async function disableIfFailingTooLong(trx: Db, endpointId: string, disableAfterMs: number, lastError: string | null): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { team_id: string; url: string; failing_since: Date; enabled: boolean; expired: boolean }[] }>(
    `update webhook_endpoints set failing_since = coalesce(failing_since, now())
      where id = ?
      returning team_id, url, failing_since, enabled, failing_since <= now() - make_interval(secs => ?) as expired`,
    [endpointId, disableAfterMs / 1000],
  );
  const e = rows.at(0);
  if (!e || !e.enabled || !e.expired) return false;
  const failingSince = e.failing_since.toISOString();
  await WebhookEndpoint.query(trx)
    .findById(endpointId)
    .patch({ enabled: false, disabledAt: dbNow(), disabledReason: `every delivery failed since ${failingSince}`, updatedAt: dbNow() });
  await notify(trx, {
    teamId: e.team_id,
    type: 'webhook_endpoint_disabled',
    priority: 2,
    metadata: { endpointId, url: e.url, failingSince, lastError },
  });
  return true;
}

/** The retry window passed (or the endpoint went): the delivery ends `failed` unless it was delivered. */
export async function giveUpWebhookDelivery(db: Db, deliveryId: string): Promise<void> {
  await WebhookDelivery.query(db).findById(deliveryId).whereNot({ status: 'delivered' }).patch({ status: 'failed', updatedAt: dbNow() });
}
