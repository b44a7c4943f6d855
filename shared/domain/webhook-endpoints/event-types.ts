import { z } from 'zod';
import {
  BANK_PROVIDERS,
  DOCUMENT_KINDS,
  INVOICE_STATUSES,
  TRANSACTION_STATUSES,
  type SubscribableEventType as EventTypeColumn,
} from '../../db/models';
import type { DecisionVia } from '../../temporal/receipt-ingestion/contract';
import type { Assert, SameType } from '../common/same-type';

const uuid = (description: string) => z.uuid().meta({ description });

const transactionEventData = z
  .object({
    id: uuid('The transaction.'),
    date: z.iso.date(),
    name: z.string(),
    amount: z.number().meta({ description: 'Signed: negative is an expense.' }),
    currency: z.string().meta({ description: 'ISO 4217, upper case.' }),
    status: z.enum(TRANSACTION_STATUSES),
    bankAccountId: z.uuid().nullable(),
    manual: z.boolean().meta({ description: 'Entered by hand or imported from a file, not synced from a bank.' }),
  })
  .meta({ id: 'TransactionEventData' });

const invoiceEventData = z.object({
  invoiceId: uuid('The invoice.'),
  invoiceNumber: z.string().nullable(),
  status: z.enum(INVOICE_STATUSES),
  dueDate: z.iso.date().nullable(),
});

const bankConnectionEventData = z.object({
  connectionId: uuid('The bank connection.'),
  provider: z.enum(BANK_PROVIDERS),
  institutionName: z.string().nullable(),
});

const decisionVia = z.enum(['chat', 'api', 'timeout', 'auto']).meta({
  description: 'Who matched it: `auto` (an exact match on arrival), `api` or `chat` (a person confirmed the suggestion).',
});
// The receipt workflow's contract names the same list on its own.
type _ViaIsTheContract = Assert<SameType<z.infer<typeof decisionVia>, DecisionVia>>;

/**
 * The events webhooks out can send, and the schema of each one's `data`: the sender's types come
 * from these schemas, and the OpenAPI document's `webhooks` section is made from them, so the two
 * cannot differ. Endpoints subscribe to a list of these; `webhook.test` is sent only on request
 * (POST /webhook-endpoints/{id}/test).
 */
export const WEBHOOK_EVENT_DATA = {
  'transaction.created': transactionEventData,
  'transaction.updated': transactionEventData,
  'transaction.deleted': transactionEventData,
  'bank_connection.connected': bankConnectionEventData,
  'bank_connection.disconnected': bankConnectionEventData.extend({
    code: z.string().meta({ description: "The provider's error code, e.g. `ITEM_LOGIN_REQUIRED`." }),
    reason: z.string().nullable().meta({ description: "The provider's message, when it gave one." }),
  }),
  'inbox.matched': z.object({
    inboxItemId: uuid('The inbox item.'),
    transactionId: uuid('The transaction it was matched to.'),
    via: decisionVia,
  }),
  'invoice.paid': invoiceEventData.extend({ paidAt: z.iso.datetime() }),
  'invoice.overdue': invoiceEventData,
  'document.processed': z.object({
    documentId: uuid('The document.'),
    name: z.string(),
    kind: z.enum(DOCUMENT_KINDS).nullable().meta({ description: 'What the document was classified as; null when it could not be.' }),
  }),
  'webhook.test': z.object({ endpointId: uuid('The endpoint the test was sent to.'), message: z.string() }),
} satisfies Record<string, z.ZodObject>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_DATA;
export type WebhookEventData = { [T in WebhookEventType]: z.infer<(typeof WEBHOOK_EVENT_DATA)[T]> };

/** What is POSTed to an endpoint: the same three fields for every event. */
export const webhookEventSchema = (type: WebhookEventType) =>
  z.object({
    type: z.literal(type),
    timestamp: z.iso.datetime().meta({ description: 'When the change was made (UTC).' }),
    data: WEBHOOK_EVENT_DATA[type],
  });
export interface WebhookEvent<T extends WebhookEventType> {
  type: T;
  timestamp: string;
  data: WebhookEventData[T];
}
// The envelope's fields, as its schema states them.
type _EnvelopeIsTheSchema = Assert<SameType<keyof WebhookEvent<WebhookEventType>, keyof z.infer<ReturnType<typeof webhookEventSchema>>>>;

/** The body of one event, as it is stored with its deliveries and sent. */
export const eventPayload = <T extends WebhookEventType>(
  type: T,
  data: WebhookEventData[T],
  timestamp = new Date().toISOString(),
): string => JSON.stringify({ type, timestamp, data } satisfies WebhookEvent<T>);

export type SubscribableEventType = Exclude<WebhookEventType, 'webhook.test'>;
// webhook_endpoints.event_types is typed in the model on its own: an event added here needs its line there.
type _SubscribableAreTheColumn = Assert<SameType<SubscribableEventType, EventTypeColumn>>;

/** Every event an endpoint can subscribe to (a Record: an event added above without a line here fails to compile). */
const SUBSCRIBABLE: Record<SubscribableEventType, string> = {
  'transaction.created': 'A transaction was created (by hand, by import, or by a bank sync).',
  'transaction.updated': 'A transaction was changed (by hand, or the bank reported a change).',
  'transaction.deleted': 'A manual transaction was deleted, or the bank withdrew one it had reported; `data` is the transaction as it was.',
  'bank_connection.connected': 'A bank connection was made, or a broken one works again.',
  'bank_connection.disconnected': 'A bank connection broke and needs a reconnect.',
  'inbox.matched': 'A receipt or invoice in the inbox was matched to a transaction.',
  'invoice.paid': 'An invoice was paid.',
  'invoice.overdue': 'An invoice passed its due date unpaid.',
  'document.processed': 'An uploaded document was read and classified.',
};
export const WEBHOOK_EVENT_DESCRIPTIONS = SUBSCRIBABLE;
export const WEBHOOK_EVENT_TYPES = Object.keys(SUBSCRIBABLE) as [SubscribableEventType, ...SubscribableEventType[]];
/** Every event the sender emits, `webhook.test` included, with what it means. */
export const ALL_WEBHOOK_EVENTS: Record<WebhookEventType, string> = {
  ...SUBSCRIBABLE,
  'webhook.test': 'Sent on request only (`POST /webhook-endpoints/{id}/test`), whatever the endpoint subscribed to.',
};
