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
 * claims it (`starting`) and starts its WebhookDelivery run (`running`); the run's attempts end it
 * `delivered` or `failed`. A replay puts a finished delivery back to `starting`. A start lost with
 * its process leaves the row `starting`; after `staleAfterS` a relay claims it again, and the
 * workflow id makes that start find the run if there is one.
 */

export interface DueDelivery {
  deliveryId: string;
  teamId: string;
  endpointId: string;
  /** The event and the endpoint's URL, for the run's summary; the URL is null once the endpoint is gone. */
  eventType: string;
  url: string | null;
}

export async function claimDueWebhookDeliveries(db: Db, opts: { limit: number; staleAfterS: number }): Promise<DueDelivery[]> {
  const { rows } = await db.raw<{ rows: { id: string; team_id: string; endpoint_id: string; event_type: string; url: string | null }[] }>(
    `with due as (
       select id from webhook_deliveries
        where status = 'pending' or (status = 'starting' and claimed_at < now() - make_interval(secs => ?))
        order by created_at
        limit ?
        for update skip locked)
     update webhook_deliveries d set status = 'starting', claimed_at = now(), updated_at = now()
       from due where d.id = due.id
     returning d.id, d.team_id, d.endpoint_id, d.event_type,
       (select e.url from webhook_endpoints e where e.id = d.endpoint_id and e.team_id = d.team_id) as url`,
    [opts.staleAfterS, opts.limit],
  );
  return rows.map((r) => ({ deliveryId: r.id, teamId: r.team_id, endpointId: r.endpoint_id, eventType: r.event_type, url: r.url }));
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
  due: DueDelivery,
): Promise<boolean> {
  try {
    const { deliveryId, teamId, endpointId } = due;
    await startWebhookDelivery(deps.temporal, { deliveryId, teamId, endpointId, retry: webhookRetryPolicy(deps.config) }, due);
  } catch (err) {
    deps.logger.warn({ err, deliveryId: due.deliveryId }, 'could not start a webhook delivery; it stays due');
    await WebhookDelivery.query(deps.db).where({ id: due.deliveryId, status: 'starting' }).patch({ status: 'pending', claimedAt: null });
    return false;
  }
  // The run may have finished its first attempt already: only a delivery still `starting` moves.
  await WebhookDelivery.query(deps.db)
    .where({ id: due.deliveryId, status: 'starting' })
    .patch({ status: 'running', updatedAt: new Date() });
  return true;
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
  return recordAttempt(db, row, result, config.WEBHOOK_DISABLE_AFTER);
}

async function recordAttempt(
  db: Db,
  delivery: Pick<DeliveryToSend, 'id' | 'teamId'>,
  result: AttemptResult,
  disableAfterMs: number,
): Promise<WebhookAttemptReport> {
  const ok = result.error === null;
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
        status: ok ? 'delivered' : 'running',
        deliveredAt: ok ? dbNow() : null,
        updatedAt: dbNow(),
      });
    if (ok) {
      await WebhookEndpoint.query(trx).findById(current.endpointId).patch({ failingSince: null });
      return { outcome: 'delivered', attempt, statusCode: result.statusCode };
    }
    const disabled = await disableIfFailingTooLong(trx, current.endpointId, disableAfterMs, result.error);
    if (!disabled) return { outcome: 'failed', attempt, statusCode: result.statusCode };
    await giveUpWebhookDelivery(trx, delivery.id);
    return { outcome: 'abandoned', attempt, statusCode: result.statusCode };
  });
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
