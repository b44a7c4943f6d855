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
import { mutation, query } from './declare';
import { none, one, page } from './output';

const SIGNING =
  'Each delivery is a POST of `{type, timestamp, data}` signed with Standard Webhooks: `webhook-id` (the delivery id, the same on every retry and replay), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret). Any 2xx answer is success; anything else is retried with exponential backoff for 3 days. An endpoint failing for 5 days is disabled and the team notified.';

const EVENTS = Object.entries(WEBHOOK_EVENT_DESCRIPTIONS)
  .map(([type, what]) => `- \`${type}\`: ${what}`)
  .join('\n');

export const webhookEndpoints = [
  query('webhookEndpoints.get', {
    rest: 'GET /webhook-endpoints',
    formerly: ['webhookEndpoints.list'],
    scopes: ['teams.read'],
    summary: 'List webhook endpoints',
    description: 'The team’s endpoints, newest first, keyset-paginated. Secrets are never listed.',
    input: listWebhookEndpointsQuery,
    output: page(webhookEndpointSchema),
    run: ({ principal, input }, { db }) => listWebhookEndpoints(db, principal.teamId, input),
  }),
  query('webhookEndpoints.deliveries', {
    rest: 'GET /webhook-endpoints/:id/deliveries',
    scopes: ['teams.read'],
    summary: 'List deliveries of an endpoint',
    description: 'Newest first, keyset-paginated; each with every attempt: status code, the start of the answer, duration and error.',
    input: webhookEndpointIdParams.extend(listWebhookDeliveriesQuery.shape),
    output: page(webhookDeliverySchema),
    run: ({ principal, input }, { db }) => listWebhookDeliveries(db, principal.teamId, input.id, input),
  }),
  query('webhookEndpoints.getById', {
    rest: 'GET /webhook-endpoints/:id',
    scopes: ['teams.read'],
    summary: 'Get a webhook endpoint',
    input: webhookEndpointIdParams,
    output: one(webhookEndpointSchema),
    run: ({ principal, input }, { db }) => getWebhookEndpoint(db, principal.teamId, input.id),
  }),
  query('webhookEndpoints.delivery', {
    rest: 'GET /webhook-endpoints/:id/deliveries/:deliveryId',
    scopes: ['teams.read'],
    summary: 'Get a delivery',
    input: webhookDeliveryIdParams,
    output: one(webhookDeliverySchema),
    run: ({ principal, input }, { db }) => getWebhookDelivery(db, principal.teamId, input.id, input.deliveryId),
  }),
  mutation('webhookEndpoints.create', {
    rest: 'POST /webhook-endpoints',
    status: 201,
    scopes: ['teams.write'],
    summary: 'Register a webhook endpoint',
    description: `The answer carries the signing secret (\`whsec_…\`), shown only this once. A URL on a private, loopback, link-local or unique-local address (or a host name resolving to one) is 400. ${SIGNING}\n\nEvents:\n${EVENTS}`,
    input: createWebhookEndpointBody,
    output: one(webhookEndpointWithSecretSchema),
    run: ({ principal, input }, deps) => createWebhookEndpoint(deps, principal.teamId, input),
  }),
  mutation('webhookEndpoints.update', {
    rest: 'PATCH /webhook-endpoints/:id',
    body: 'data',
    scopes: ['teams.write'],
    summary: 'Edit a webhook endpoint',
    description: 'Change the URL, events or description; `enabled: true` re-enables an endpoint the service disabled.',
    input: webhookEndpointIdParams.extend({ data: updateWebhookEndpointBody }),
    output: one(webhookEndpointSchema),
    run: ({ principal, input }, deps) => updateWebhookEndpoint(deps, principal.teamId, input.id, input.data),
  }),
  mutation('webhookEndpoints.delete', {
    rest: 'DELETE /webhook-endpoints/:id',
    scopes: ['teams.write'],
    summary: 'Delete a webhook endpoint',
    description: 'Its deliveries go with it; retries in progress stop.',
    input: webhookEndpointIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteWebhookEndpoint(db, principal.teamId, input.id),
  }),
  mutation('webhookEndpoints.rotateSecret', {
    rest: 'POST /webhook-endpoints/:id/rotate-secret',
    scopes: ['teams.write'],
    summary: 'Rotate the signing secret',
    description: 'A new secret, shown only in this answer; every attempt from now on is signed with it.',
    input: webhookEndpointIdParams,
    output: one(webhookEndpointWithSecretSchema),
    run: ({ principal, input }, deps) => rotateWebhookSecret(deps, principal.teamId, input.id),
  }),
  mutation('webhookEndpoints.sendTest', {
    rest: 'POST /webhook-endpoints/:id/test',
    status: 202,
    scopes: ['teams.write'],
    summary: 'Send a test event',
    description:
      'Delivers a `webhook.test` event to this endpoint (whatever it subscribes to), signed and retried as any other. 409 when the endpoint is disabled.',
    input: webhookEndpointIdParams,
    output: one(webhookDeliverySchema),
    run: ({ principal, input }, deps) => sendTestWebhook(deps, principal.teamId, input.id),
  }),
  mutation('webhookEndpoints.replayDelivery', {
    rest: 'POST /webhook-endpoints/:id/deliveries/:deliveryId/replay',
    status: 202,
    scopes: ['teams.write'],
    summary: 'Replay a delivery',
    description:
      'Sends a delivered or failed delivery again: a new run of attempts with the same `webhook-id`. 409 while it is still being delivered.',
    input: webhookDeliveryIdParams,
    output: one(webhookDeliverySchema),
    run: ({ principal, input }, deps) => replayWebhookDelivery(deps, principal.teamId, input.id, input.deliveryId),
  }),
];
