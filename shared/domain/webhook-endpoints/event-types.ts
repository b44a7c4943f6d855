import type { SubscribableEventType as EventTypeColumn } from '../../db/models';
import type { Assert, SameType } from '../common/same-type';

/**
 * The events webhooks out can send, and what each one's `data` holds. Endpoints subscribe to a list
 * of these; `webhook.test` is sent only on request (POST /webhook-endpoints/{id}/test).
 */
export interface WebhookEventData {
  'transaction.created': TransactionEventData;
  'transaction.updated': TransactionEventData;
  /** The transaction as it was when deleted. */
  'transaction.deleted': TransactionEventData;
  'bank_connection.connected': { connectionId: string; provider: string; institutionName: string | null };
  'bank_connection.disconnected': {
    connectionId: string;
    provider: string;
    institutionName: string | null;
    code: string;
    reason: string | null;
  };
  'inbox.matched': { inboxItemId: string; transactionId: string; via: string };
  'invoice.paid': InvoiceEventData & { paidAt: string };
  'invoice.overdue': InvoiceEventData;
  'document.processed': { documentId: string; name: string; kind: string | null };
  'webhook.test': { endpointId: string; message: string };
}

// Types, not interfaces: event data must be assignable to the JSON payload's Record<string, unknown>.
type TransactionEventData = {
  id: string;
  date: string;
  name: string;
  amount: number;
  currency: string;
  status: string;
  bankAccountId: string | null;
  manual: boolean;
};
type InvoiceEventData = { invoiceId: string; invoiceNumber: string | null; status: string; dueDate: string | null };

export type WebhookEventType = keyof WebhookEventData;

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
