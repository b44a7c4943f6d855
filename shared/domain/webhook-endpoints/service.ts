import { randomUUID } from 'node:crypto';
import type { ModelObject } from 'objection';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from '../../db/models';
import { dbNow, toIso, toIsoOrNull } from '../../db/timestamps';
import { badRequest, conflict, notFound } from '../../errors';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { encrypt, keyringOf } from '../crypto/encryption';
import { startClaimedDelivery } from './deliveries';
import { eventPayload } from './event-types';
import type {
  CreateWebhookEndpointBody,
  ListWebhookDeliveriesQuery,
  ListWebhookEndpointsQuery,
  UpdateWebhookEndpointBody,
  WebhookAttemptDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './schema';
import { newWebhookSecret } from './signing';
import { refusedWebhookUrl } from './url-guard';

export interface WebhookDeps {
  db: Db;
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
}

/** An endpoint as the keyset list selects it: its columns but the secret, and its cursor key. */
type EndpointRow = Omit<ModelObject<WebhookEndpoint>, 'teamId' | 'secretEncrypted'> & CursorRow;

const ENDPOINT_COLUMNS = [
  'e.id',
  'e.url',
  'e.description',
  'e.event_types',
  'e.enabled',
  'e.failing_since',
  'e.disabled_at',
  'e.disabled_reason',
  'e.created_at',
  'e.updated_at',
];

const toEndpoint = (r: EndpointRow): WebhookEndpointDto => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes,
  enabled: r.enabled,
  failingSince: toIsoOrNull(r.failingSince),
  disabledAt: toIsoOrNull(r.disabledAt),
  disabledReason: r.disabledReason,
  createdAt: toIso(r.createdAt),
  updatedAt: toIso(r.updatedAt),
});

const selectEndpoints = (db: Db, teamId: string) =>
  db('webhook_endpoints as e')
    .where('e.team_id', teamId)
    .select<EndpointRow[]>([...ENDPOINT_COLUMNS, db.raw('e.created_at::text as cursor_created_at')]);

/** 400 with details when the URL points where we must not call (see url-guard.ts). */
async function assertAllowedUrl(config: Config, url: string): Promise<void> {
  const problem = await refusedWebhookUrl(url, config.WEBHOOKS_ALLOW_PRIVATE);
  if (problem) throw badRequest(`Invalid request: url: ${problem.message}`, [problem]);
}

export async function listWebhookEndpoints(db: Db, teamId: string, query: ListWebhookEndpointsQuery): Promise<Page<WebhookEndpointDto>> {
  return newestFirstPage(selectEndpoints(db, teamId), 'e', query, toEndpoint);
}

export async function getWebhookEndpoint(db: Db, teamId: string, id: string): Promise<WebhookEndpointDto> {
  const row = (await selectEndpoints(db, teamId).where('e.id', id)).at(0);
  if (!row) throw notFound(`Webhook endpoint ${id} not found`);
  return toEndpoint(row);
}

/** Registers an endpoint; the answer carries its signing secret, the only time it is shown. */
export async function createWebhookEndpoint(
  deps: Pick<WebhookDeps, 'db' | 'config'>,
  teamId: string,
  body: CreateWebhookEndpointBody,
): Promise<WebhookEndpointWithSecretDto> {
  await assertAllowedUrl(deps.config, body.url);
  const secret = newWebhookSecret();
  const row = await WebhookEndpoint.query(deps.db).insert({
    teamId,
    url: body.url,
    description: body.description ?? null,
    eventTypes: body.eventTypes,
    enabled: body.enabled ?? true,
    secretEncrypted: encrypt(secret, keyringOf(deps.config)),
  });
  return { ...(await getWebhookEndpoint(deps.db, teamId, row.id)), secret };
}

/** Enabling an endpoint (again) clears what the service recorded when it disabled it. */
export async function updateWebhookEndpoint(
  deps: Pick<WebhookDeps, 'db' | 'config'>,
  teamId: string,
  id: string,
  body: UpdateWebhookEndpointBody,
): Promise<WebhookEndpointDto> {
  if (body.url !== undefined) await assertAllowedUrl(deps.config, body.url);
  const n = await WebhookEndpoint.query(deps.db)
    .where({ teamId, id })
    .patch({
      ...body,
      ...(body.enabled === true && { disabledAt: null, disabledReason: null, failingSince: null }),
      ...(body.enabled === false && { disabledAt: dbNow(), disabledReason: null }),
      updatedAt: dbNow(),
    });
  if (!n) throw notFound(`Webhook endpoint ${id} not found`);
  return getWebhookEndpoint(deps.db, teamId, id);
}

/** Deleting an endpoint deletes its deliveries; a run still retrying one finds it gone and stops. */
export async function deleteWebhookEndpoint(db: Db, teamId: string, id: string): Promise<void> {
  const n = await WebhookEndpoint.query(db).where({ teamId, id }).delete();
  if (!n) throw notFound(`Webhook endpoint ${id} not found`);
}

/** A new signing secret, shown once; attempts from now on are signed with it. */
export async function rotateWebhookSecret(
  deps: Pick<WebhookDeps, 'db' | 'config'>,
  teamId: string,
  id: string,
): Promise<WebhookEndpointWithSecretDto> {
  const secret = newWebhookSecret();
  const n = await WebhookEndpoint.query(deps.db)
    .where({ teamId, id })
    .patch({ secretEncrypted: encrypt(secret, keyringOf(deps.config)), updatedAt: dbNow() });
  if (!n) throw notFound(`Webhook endpoint ${id} not found`);
  return { ...(await getWebhookEndpoint(deps.db, teamId, id)), secret };
}

interface DeliveryRow extends CursorRow {
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryDto['status'];
  payload: string;
  attempts: number;
  lastStatusCode: number | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

type AttemptRow = Pick<
  WebhookDeliveryAttempt,
  'deliveryId' | 'attempt' | 'statusCode' | 'responseBody' | 'durationMs' | 'error' | 'createdAt'
>;

const selectDeliveries = (db: Db, teamId: string, endpointId: string) =>
  db('webhook_deliveries as d')
    .where({ 'd.team_id': teamId, 'd.endpoint_id': endpointId })
    .select<DeliveryRow[]>([
      'd.id',
      'd.endpoint_id',
      'd.event_id',
      'd.event_type',
      'd.status',
      'd.payload',
      'd.attempts',
      'd.last_status_code',
      'd.delivered_at',
      'd.created_at',
      db.raw('d.created_at::text as cursor_created_at'),
    ]);

const toAttempt = (a: AttemptRow): WebhookAttemptDto => ({
  attempt: a.attempt,
  statusCode: a.statusCode,
  responseBody: a.responseBody,
  durationMs: a.durationMs,
  error: a.error,
  createdAt: toIso(a.createdAt),
});

/** The deliveries' attempts, first to last, in one query for a whole page. */
async function withAttempts(db: Db, teamId: string, page: Page<DeliveryRow>): Promise<Page<WebhookDeliveryDto>> {
  const attempts = page.data.length
    ? await WebhookDeliveryAttempt.query(db)
        .where({ teamId })
        .whereIn(
          'deliveryId',
          page.data.map((d) => d.id),
        )
        .orderBy([{ column: 'deliveryId' }, { column: 'attempt' }])
        .select('deliveryId', 'attempt', 'statusCode', 'responseBody', 'durationMs', 'error', 'createdAt')
    : [];
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return {
    meta: page.meta,
    data: page.data.map((d) => ({
      id: d.id,
      endpointId: d.endpointId,
      eventId: d.eventId,
      eventType: d.eventType,
      status: d.status,
      payload: JSON.parse(d.payload) as Record<string, unknown>,
      attemptCount: d.attempts,
      lastStatusCode: d.lastStatusCode,
      deliveredAt: toIsoOrNull(d.deliveredAt),
      createdAt: toIso(d.createdAt),
      attempts: (byDelivery.get(d.id) ?? []).map(toAttempt),
    })),
  };
}

/** An endpoint's deliveries, newest first, each with every attempt and answer. */
export async function listWebhookDeliveries(
  db: Db,
  teamId: string,
  endpointId: string,
  query: ListWebhookDeliveriesQuery,
): Promise<Page<WebhookDeliveryDto>> {
  await getWebhookEndpoint(db, teamId, endpointId);
  const q = selectDeliveries(db, teamId, endpointId);
  if (query.status) q.where('d.status', query.status);
  return withAttempts(db, teamId, await newestFirstPage(q, 'd', query, (r) => r));
}

export async function getWebhookDelivery(db: Db, teamId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
  const rows = await selectDeliveries(db, teamId, endpointId).where('d.id', deliveryId);
  const delivery = (await withAttempts(db, teamId, { data: rows, meta: { cursor: null, hasNextPage: false } })).data.at(0);
  if (!delivery) throw notFound(`Webhook delivery ${deliveryId} not found`);
  return delivery;
}

/**
 * Sends a delivery again, whatever became of it: a new run with the same `webhook-id` (its attempts
 * continue the numbering). A delivery still being delivered is 409.
 */
export async function replayWebhookDelivery(
  deps: WebhookDeps,
  teamId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryDto> {
  const eventType = await deps.db.transaction(async (trx) => {
    const row = await WebhookDelivery.query(trx).findOne({ teamId, endpointId, id: deliveryId }).forUpdate().select('status', 'eventType');
    if (!row) throw notFound(`Webhook delivery ${deliveryId} not found`);
    if (row.status !== 'delivered' && row.status !== 'failed')
      throw conflict('This delivery is still being delivered; replay it when it has ended');
    await WebhookDelivery.query(trx).findById(deliveryId).patch({ status: 'starting', claimedAt: dbNow(), updatedAt: dbNow() });
    return row.eventType;
  });
  const endpoint = await WebhookEndpoint.query(deps.db).findOne({ teamId, id: endpointId }).select('url');
  await startClaimedDelivery(deps, { deliveryId, teamId, endpointId, eventType, url: endpoint?.url ?? null });
  return getWebhookDelivery(deps.db, teamId, endpointId, deliveryId);
}

/** A `webhook.test` event to this endpoint only, subscribed to it or not; a disabled endpoint is 409. */
export async function sendTestWebhook(deps: WebhookDeps, teamId: string, endpointId: string): Promise<WebhookDeliveryDto> {
  const endpoint = await getWebhookEndpoint(deps.db, teamId, endpointId);
  if (!endpoint.enabled) throw conflict('This endpoint is disabled; enable it to send it events');
  const payload = eventPayload('webhook.test', { endpointId, message: 'A test event: your endpoint receives and verifies webhooks.' });
  const row = await WebhookDelivery.query(deps.db).insert({
    teamId,
    endpointId,
    eventId: randomUUID(),
    eventType: 'webhook.test',
    payload,
    status: 'starting',
    claimedAt: dbNow(),
  });
  await startClaimedDelivery(deps, { deliveryId: row.id, teamId, endpointId, eventType: row.eventType, url: endpoint.url });
  return getWebhookDelivery(deps.db, teamId, endpointId, row.id);
}
