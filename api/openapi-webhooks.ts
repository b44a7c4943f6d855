import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ALL_WEBHOOK_EVENTS, webhookEventSchema, type WebhookEventType } from '../shared/domain/webhook-endpoints/event-types';

/** `bank_connection.disconnected` → `BankConnectionDisconnectedEvent`: the event's schema name in the document. */
export const eventSchemaName = (type: WebhookEventType) =>
  `${type
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')}Event`;

const signatureHeaders = z.object({
  'webhook-id': z.uuid().meta({
    description: "The delivery's id: the same on every retry and replay of it, so a receiver can drop duplicates.",
  }),
  'webhook-timestamp': z.string().meta({ description: 'When this attempt was signed, in seconds since the epoch.' }),
  'webhook-signature': z.string().meta({
    description:
      "`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (Standard Webhooks); verify it, and the timestamp's age, before trusting the body.",
  }),
});

const EVENT_TYPES = Object.keys(ALL_WEBHOOK_EVENTS) as WebhookEventType[];
// Made once: a schema's `id` may be registered only once.
const EVENT_SCHEMAS = new Map(EVENT_TYPES.map((type) => [type, webhookEventSchema(type).meta({ id: eventSchemaName(type) })]));

/**
 * Every event the webhook sender emits, as OpenAPI 3.1 `webhooks`: the request each endpoint gets,
 * its body from the same schema the sender's types come from (`WEBHOOK_EVENT_DATA`).
 */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const [type, schema] of EVENT_SCHEMAS) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `webhook.${type}`,
      summary: type,
      description: [
        ALL_WEBHOOK_EVENTS[type],
        "POSTed as JSON to every enabled endpoint of the team subscribed to it, signed with the endpoint's secret. Answer with any 2xx within the timeout (`WEBHOOK_TIMEOUT`, 15 s); anything else, a redirect or no answer is tried again with backoff for `WEBHOOK_RETRY_WINDOW` (3 days). Redirects are not followed. Attempts are listed under `GET /webhook-endpoints/{id}/deliveries`.",
      ].join('\n\n'),
      tags: ['Webhooks'],
      security: [],
      request: {
        headers: signatureHeaders,
        body: {
          required: true,
          content: { 'application/json': { schema } },
        },
      },
      responses: {
        '2XX': { description: 'Received: the delivery is done.' },
        default: { description: 'Not received: the delivery is tried again later.' },
      },
    });
  }
}
