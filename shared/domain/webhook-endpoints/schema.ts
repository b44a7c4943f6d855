import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES } from '../../db/models';
import { pageSize } from '../common/query';
import { WEBHOOK_EVENT_TYPES } from './event-types';

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(webhookEventType),
    enabled: z.boolean(),
    failingSince: z.iso.datetime().nullable().meta({ description: 'Every delivery since this time has failed; null once one succeeds.' }),
    disabledAt: z.iso.datetime().nullable(),
    disabledReason: z.string().nullable().meta({ description: 'Why the service disabled it (failing too long); null when a member did.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint', description: 'A URL the team receives events at, signed with Standard Webhooks.' });
export type WebhookEndpointDto = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z.string().meta({
      description: 'The signing secret (`whsec_…`), shown only in this answer: verify `webhook-signature` with it (Standard Webhooks).',
    }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecretDto = z.infer<typeof webhookEndpointWithSecretSchema>;

const eventTypes = z
  .array(webhookEventType)
  .min(1)
  .max(20)
  .refine((a) => new Set(a).size === a.length, { message: 'list each event type once' });
const url = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .meta({ description: 'http(s) URL on a public address.' });
const description = z.string().trim().max(500).nullable().optional();

export const createWebhookEndpointBody = z
  .object({ url, eventTypes, description, enabled: z.boolean().optional() })
  .strict()
  .meta({ id: 'CreateWebhookEndpoint' });
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBody>;

export const updateWebhookEndpointBody = z
  .object({
    url: url.optional(),
    eventTypes: eventTypes.optional(),
    description,
    enabled: z.boolean().optional().meta({ description: 'true re-enables an endpoint the service disabled.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateWebhookEndpoint' });
export type UpdateWebhookEndpointBody = z.infer<typeof updateWebhookEndpointBody>;

export const listWebhookEndpointsQuery = z.object({ cursor: z.string().optional(), pageSize });
export type ListWebhookEndpointsQuery = z.infer<typeof listWebhookEndpointsQuery>;

export const webhookEndpointIdParams = z.object({ id: z.uuid() });
export const webhookDeliveryIdParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });

export const webhookAttemptSchema = z
  .object({
    attempt: z.number().int(),
    statusCode: z.number().int().nullable().meta({ description: 'The HTTP status the endpoint answered; null when none came.' }),
    responseBody: z.string().nullable().meta({ description: 'The first 1,000 characters of the answer.' }),
    durationMs: z.number().int(),
    error: z.string().nullable().meta({ description: 'Why the attempt failed: a non-2xx status, a timeout, a refused address.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });
export type WebhookAttemptDto = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z
  .object({
    id: z.uuid().meta({ description: 'Sent as `webhook-id`; the same on every attempt and replay, so receivers can drop duplicates.' }),
    endpointId: z.uuid(),
    eventId: z.uuid().meta({ description: 'One event delivered to several endpoints has one event id.' }),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The body sent: `{type, timestamp, data}`.' }),
    attemptCount: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    deliveredAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    attempts: z.array(webhookAttemptSchema).meta({ description: 'Every attempt, first to last.' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryDto = z.infer<typeof webhookDeliverySchema>;

export const listWebhookDeliveriesQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});
export type ListWebhookDeliveriesQuery = z.infer<typeof listWebhookDeliveriesQuery>;
