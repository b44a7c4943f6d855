import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from '../../shared/domain/webhook-endpoints/service';
import {
  createWebhookEndpointBody,
  listWebhookDeliveriesQuery,
  listWebhookEndpointsQuery,
  updateWebhookEndpointBody,
  webhookDeliveryIdParams,
  webhookDeliverySchema,
  webhookEndpointIdParams,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../../shared/domain/webhook-endpoints/schema';
import { WEBHOOK_EVENT_DESCRIPTIONS } from '../../shared/domain/webhook-endpoints/event-types';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { none, one, page } from './replies';

const tag = 'Webhooks out';

const SIGNING =
  'Each delivery is a POST of `{type, timestamp, data}` signed with Standard Webhooks: `webhook-id` (the delivery id, the same on every retry and replay), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret). Any 2xx answer is success; anything else is retried with exponential backoff for 3 days. An endpoint failing for 5 days is disabled and the team notified.';

const EVENTS = Object.entries(WEBHOOK_EVENT_DESCRIPTIONS)
  .map(([type, what]) => `- \`${type}\`: ${what}`)
  .join('\n');

export const webhookEndpointRoutes = (deps: Pick<ApiDeps, 'db' | 'config' | 'temporal' | 'logger'>) => {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints',
      scopes: ['teams.read'],
      tag,
      summary: 'List webhook endpoints',
      description: 'The team’s endpoints, newest first, keyset-paginated. Secrets are never listed.',
      query: listWebhookEndpointsQuery,
      reply: page(webhookEndpointSchema),
      handler: ({ principal, query }) => listWebhookEndpoints(db, principal.teamId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/:id',
      scopes: ['teams.read'],
      tag,
      summary: 'Get a webhook endpoint',
      params: webhookEndpointIdParams,
      reply: one(webhookEndpointSchema),
      handler: ({ principal, params }) => getWebhookEndpoint(db, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints',
      scopes: ['teams.write'],
      tag,
      summary: 'Register a webhook endpoint',
      description: `The answer carries the signing secret (\`whsec_…\`), shown only this once. A URL on a private, loopback, link-local or unique-local address (or a host name resolving to one) is 400. ${SIGNING}\n\nEvents:\n${EVENTS}`,
      body: createWebhookEndpointBody,
      reply: one(webhookEndpointWithSecretSchema),
      status: 201,
      handler: ({ principal, body }) => createWebhookEndpoint(deps, principal.teamId, body),
    }),
    defineRoute({
      method: 'patch',
      path: '/webhook-endpoints/:id',
      scopes: ['teams.write'],
      tag,
      summary: 'Edit a webhook endpoint',
      description: 'Change the URL, events or description; `enabled: true` re-enables an endpoint the service disabled.',
      params: webhookEndpointIdParams,
      body: updateWebhookEndpointBody,
      reply: one(webhookEndpointSchema),
      handler: ({ principal, params, body }) => updateWebhookEndpoint(deps, principal.teamId, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/webhook-endpoints/:id',
      scopes: ['teams.write'],
      tag,
      summary: 'Delete a webhook endpoint',
      description: 'Its deliveries go with it; retries in progress stop.',
      params: webhookEndpointIdParams,
      reply: none,
      handler: ({ principal, params }) => deleteWebhookEndpoint(db, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/:id/rotate-secret',
      scopes: ['teams.write'],
      tag,
      summary: 'Rotate the signing secret',
      description: 'A new secret, shown only in this answer; every attempt from now on is signed with it.',
      params: webhookEndpointIdParams,
      reply: one(webhookEndpointWithSecretSchema),
      handler: ({ principal, params }) => rotateWebhookSecret(deps, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/:id/test',
      scopes: ['teams.write'],
      tag,
      summary: 'Send a test event',
      description:
        'Delivers a `webhook.test` event to this endpoint (whatever it subscribes to), signed and retried as any other. 409 when the endpoint is disabled.',
      params: webhookEndpointIdParams,
      reply: one(webhookDeliverySchema),
      status: 202,
      handler: ({ principal, params }) => sendTestWebhook(deps, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/:id/deliveries',
      scopes: ['teams.read'],
      tag,
      summary: 'List deliveries of an endpoint',
      description: 'Newest first, keyset-paginated; each with every attempt: status code, the start of the answer, duration and error.',
      params: webhookEndpointIdParams,
      query: listWebhookDeliveriesQuery,
      reply: page(webhookDeliverySchema),
      handler: ({ principal, params, query }) => listWebhookDeliveries(db, principal.teamId, params.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/:id/deliveries/:deliveryId',
      scopes: ['teams.read'],
      tag,
      summary: 'Get a delivery',
      params: webhookDeliveryIdParams,
      reply: one(webhookDeliverySchema),
      handler: ({ principal, params }) => getWebhookDelivery(db, principal.teamId, params.id, params.deliveryId),
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/:id/deliveries/:deliveryId/replay',
      scopes: ['teams.write'],
      tag,
      summary: 'Replay a delivery',
      description:
        'Sends a delivered or failed delivery again: a new run of attempts with the same `webhook-id`. 409 while it is still being delivered.',
      params: webhookDeliveryIdParams,
      reply: one(webhookDeliverySchema),
      status: 202,
      handler: ({ principal, params }) => replayWebhookDelivery(deps, principal.teamId, params.id, params.deliveryId),
    }),
  ];
};
