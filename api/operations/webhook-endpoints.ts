import * as service from '../../shared/domain/webhook-endpoints/service';
import * as schema from '../../shared/domain/webhook-endpoints/schema';
import { WEBHOOK_EVENT_DESCRIPTIONS } from '../../shared/domain/webhook-endpoints/event-types';
import { mutation, none, one, page, query } from './declare';

const SIGNING =
  'Each delivery is a POST of `{type, timestamp, data}` signed with Standard Webhooks: `webhook-id` (the delivery id, the same on every retry and replay), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret). Any 2xx answer is success; anything else is retried with exponential backoff for 3 days. An endpoint failing for 5 days is disabled and the team notified.';

const EVENTS = Object.entries(WEBHOOK_EVENT_DESCRIPTIONS)
  .map(([type, what]) => `- \`${type}\`: ${what}`)
  .join('\n');

export const webhookEndpoints = [
  query('webhookEndpoints.get', 'GET /webhook-endpoints', ['teams.read'], {
    formerly: ['webhookEndpoints.list'],
    summary: 'List webhook endpoints',
    description: 'The team’s endpoints, newest first, keyset-paginated. Secrets are never listed.',
    input: schema.listWebhookEndpointsQuery,
    output: page(schema.webhookEndpointSchema),
    run: ({ principal, input }, { db }) => service.listWebhookEndpoints(db, principal.teamId, input),
  }),
  query('webhookEndpoints.deliveries', 'GET /webhook-endpoints/:id/deliveries', ['teams.read'], {
    summary: 'List deliveries of an endpoint',
    description: 'Newest first, keyset-paginated; each with every attempt: status code, the start of the answer, duration and error.',
    input: schema.webhookEndpointIdParams.extend(schema.listWebhookDeliveriesQuery.shape),
    output: page(schema.webhookDeliverySchema),
    run: ({ principal, input }, { db }) => service.listWebhookDeliveries(db, principal.teamId, input.id, input),
  }),
  query('webhookEndpoints.getById', 'GET /webhook-endpoints/:id', ['teams.read'], {
    summary: 'Get a webhook endpoint',
    input: schema.webhookEndpointIdParams,
    output: one(schema.webhookEndpointSchema),
    run: ({ principal, input }, { db }) => service.getWebhookEndpoint(db, principal.teamId, input.id),
  }),
  query('webhookEndpoints.delivery', 'GET /webhook-endpoints/:id/deliveries/:deliveryId', ['teams.read'], {
    summary: 'Get a delivery',
    input: schema.webhookDeliveryIdParams,
    output: one(schema.webhookDeliverySchema),
    run: ({ principal, input }, { db }) => service.getWebhookDelivery(db, principal.teamId, input.id, input.deliveryId),
  }),
  mutation('webhookEndpoints.create', 'POST /webhook-endpoints', ['teams.write'], {
    status: 201,
    summary: 'Register a webhook endpoint',
    description: `The answer carries the signing secret (\`whsec_…\`), shown only this once. A URL on a private, loopback, link-local or unique-local address (or a host name resolving to one) is 400. ${SIGNING}\n\nEvents:\n${EVENTS}`,
    input: schema.createWebhookEndpointBody,
    output: one(schema.webhookEndpointWithSecretSchema),
    run: ({ principal, input }, deps) => service.createWebhookEndpoint(deps, principal.teamId, input),
  }),
  mutation('webhookEndpoints.update', 'PATCH /webhook-endpoints/:id', ['teams.write'], {
    body: 'data',
    summary: 'Edit a webhook endpoint',
    description: 'Change the URL, events or description; `enabled: true` re-enables an endpoint the service disabled.',
    input: schema.webhookEndpointIdParams.extend({ data: schema.updateWebhookEndpointBody }),
    output: one(schema.webhookEndpointSchema),
    run: ({ principal, input }, deps) => service.updateWebhookEndpoint(deps, principal.teamId, input.id, input.data),
  }),
  mutation('webhookEndpoints.delete', 'DELETE /webhook-endpoints/:id', ['teams.write'], {
    summary: 'Delete a webhook endpoint',
    description: 'Its deliveries go with it; retries in progress stop.',
    input: schema.webhookEndpointIdParams,
    output: none,
    run: ({ principal, input }, { db }) => service.deleteWebhookEndpoint(db, principal.teamId, input.id),
  }),
  mutation('webhookEndpoints.rotateSecret', 'POST /webhook-endpoints/:id/rotate-secret', ['teams.write'], {
    summary: 'Rotate the signing secret',
    description: 'A new secret, shown only in this answer; every attempt from now on is signed with it.',
    input: schema.webhookEndpointIdParams,
    output: one(schema.webhookEndpointWithSecretSchema),
    run: ({ principal, input }, deps) => service.rotateWebhookSecret(deps, principal.teamId, input.id),
  }),
  mutation('webhookEndpoints.sendTest', 'POST /webhook-endpoints/:id/test', ['teams.write'], {
    status: 202,
    summary: 'Send a test event',
    description:
      'Delivers a `webhook.test` event to this endpoint (whatever it subscribes to), signed and retried as any other. 409 when the endpoint is disabled.',
    input: schema.webhookEndpointIdParams,
    output: one(schema.webhookDeliverySchema),
    run: ({ principal, input }, deps) => service.sendTestWebhook(deps, principal.teamId, input.id),
  }),
  mutation('webhookEndpoints.replayDelivery', 'POST /webhook-endpoints/:id/deliveries/:deliveryId/replay', ['teams.write'], {
    status: 202,
    summary: 'Replay a delivery',
    description:
      'Sends a delivered or failed delivery again: a new run of attempts with the same `webhook-id`. 409 while it is still being delivered.',
    input: schema.webhookDeliveryIdParams,
    output: one(schema.webhookDeliverySchema),
    run: ({ principal, input }, deps) => service.replayWebhookDelivery(deps, principal.teamId, input.id, input.deliveryId),
  }),
];
