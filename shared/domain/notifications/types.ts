import type { NotificationType as NotificationTypeColumn } from '../../db/models';
import type { Assert, SameType } from '../common/same-type';

/** Ids that tie a payment provider's event to the invoice it names. */
// A type, not an interface: metadata must be assignable to the jsonb column's Record<string, unknown>.
type InvoicePaymentRef = {
  invoiceId: string;
  invoiceNumber: string;
  /** The provider's event id, to find the event at the provider and in webhook_events. */
  paymentEventId: string;
};

/** Every notification the system writes, with what its metadata holds; readers switch on `type`. */
export interface NotificationMetadata {
  /** A bank sync brought new transactions. */
  transactions_created: { connectionId: string; count: number; manualSync: boolean };
  /** Pending bank transactions were never booked within PENDING_TRANSACTION_MAX_AGE_DAYS and were removed (the first 20 named). */
  pending_transactions_expired: {
    connectionId: string;
    institutionName: string | null;
    count: number;
    maxAgeDays: number;
    transactions: { name: string; date: string; amount: number; currency: string }[];
  };
  /** A receipt waiting for its transaction got a match suggestion to review. */
  inbox_needs_review: { inboxItemId: string; transactionId: string };
  /** A receipt was so clearly one transaction's that it was attached without asking (the team's auto-match). */
  receipt_matched: { inboxItemId: string; transactionId: string };
  invoice_paid: InvoicePaymentRef;
  invoice_refunded: InvoicePaymentRef;
  invoice_payment_failed: InvoicePaymentRef & { reason: string | null };
  /** The provider reports a payment or refund the invoice's status does not allow; it was recorded, not applied. */
  invoice_payment_unapplied: InvoicePaymentRef & { event: 'payment' | 'refund'; invoiceStatus: string };
  /** Someone accepted an invitation and joined the team. */
  team_member_joined: { userId: string; invitationId: string; role: 'owner' | 'member' };
  /** The bank reports the connection broken (login changed, consent withdrawn): it needs a reconnect. */
  bank_connection_disconnected: { connectionId: string; institutionName: string | null; code: string; reason: string | null };
  /** A disconnected connection works again; a sync catches up on what was missed. */
  bank_connection_reconnected: { connectionId: string; institutionName: string | null };
  /** The consent the bank holds for the connection ends soon (BANK_CONSENT_NOTICE_LEAD ahead): reconnect to renew it. */
  bank_connection_consent_expiring: { connectionId: string; institutionName: string | null; expiresAt: string };
  /** The consent ended: the bank stops sharing data until the connection is reconnected. */
  bank_connection_consent_expired: { connectionId: string; institutionName: string | null; expiresAt: string };
  /** An uploaded document could not be read (a broken PDF, an image that does not decode). */
  document_unreadable: { documentId: string; name: string; reason: string };
  /** A member created an API key: the whole team hears of a new way into its data. */
  api_key_created: { apiKeyId: string; name: string; createdBy: string; scopes: string[] };
  /** An invoice passed its due date unpaid (InvoiceLifecycle). */
  invoice_overdue: { invoiceId: string; invoiceNumber: string; dueDate: string; amountDue: number; currency: string };
  /** An invoice to be emailed has no address to go to: its customer has neither a billing nor a contact email. */
  invoice_undeliverable: { invoiceId: string; invoiceNumber: string; kind: 'invoice' | 'reminder' | 'credit_note' };
  /** An incoming bank transaction looks like the payment of an open invoice: confirm or decline it. */
  invoice_payment_suggested: {
    suggestionId: string;
    invoiceId: string;
    invoiceNumber: string;
    transactionId: string;
    amount: number;
    currency: string;
  };
  /** An incoming bank transaction naming the invoice and paying exactly what was due was recorded as its payment. */
  invoice_paid_by_transfer: { invoiceId: string; invoiceNumber: string; transactionId: string; amount: number; currency: string };
  /** The weekly summary of the team's money is ready (WeeklyInsights). */
  insight_ready: { insightId: string; periodStart: string; periodEnd: string };
  /** A transaction export (ExportTransactions) is stored as a document, ready to download. */
  export_ready: { exportId: string; documentId: string; rows: number; receipts: number };
  /** A member shared an export with an outside accountant by a link, emailed to the address (the link itself only in that email). */
  accountant_link_shared: { linkId: string; exportId: string; email: string; expiresAt: string };
  /** A webhook endpoint failed every delivery for too long (WEBHOOK_DISABLE_AFTER) and was disabled. */
  webhook_endpoint_disabled: { endpointId: string; url: string; failingSince: string; lastError: string | null };
  /** An AI agent proposed a change that waits for a person's approval (AgentAction). */
  agent_action_proposed: { agentActionId: string; operation: string; summary: string; clientName: string | null; expiresAt: string };
}

export type NotificationType = keyof NotificationMetadata;
// notifications.type is typed in the model on its own: a type added here needs its line there.
type _TypesAreTheColumn = Assert<SameType<NotificationType, NotificationTypeColumn>>;

/**
 * What each type is about, as the settings list shows it, in that order. A Record: a type added to
 * NotificationMetadata without a line here fails to compile.
 */
export const NOTIFICATION_TYPE_DESCRIPTIONS: Record<NotificationType, string> = {
  transactions_created: 'A bank sync brought new transactions (one notice per sync).',
  pending_transactions_expired: 'Pending bank transactions were never booked and were removed.',
  inbox_needs_review: 'A receipt has a suggested transaction to confirm or decline.',
  receipt_matched: 'A receipt was matched to its transaction and attached automatically.',
  invoice_paid: 'An invoice was paid through the payment provider.',
  invoice_refunded: 'An invoice was refunded through the payment provider.',
  invoice_payment_failed: 'A payment for an invoice failed.',
  invoice_payment_unapplied: 'The payment provider reported a payment the invoice could not take.',
  team_member_joined: 'Someone accepted an invitation to the team.',
  bank_connection_disconnected: 'A bank connection broke and needs a reconnect.',
  bank_connection_reconnected: 'A broken bank connection works again.',
  bank_connection_consent_expiring: "A bank connection's consent expires soon.",
  bank_connection_consent_expired: "A bank connection's consent expired.",
  document_unreadable: 'An uploaded document could not be read.',
  api_key_created: 'A member created an API key for the team.',
  invoice_overdue: 'An invoice passed its due date unpaid.',
  invoice_undeliverable: 'An invoice, its reminder or its credit note could not be emailed: the customer has no email address.',
  invoice_payment_suggested: 'A bank transaction may be the payment of an open invoice.',
  invoice_paid_by_transfer: 'A bank transfer paid an invoice in full and was recorded as its payment.',
  insight_ready: "The week's summary of the team's money is ready.",
  export_ready: 'A transaction export you asked for is ready to download.',
  accountant_link_shared: 'An export was shared with an outside accountant by an emailed link.',
  webhook_endpoint_disabled: 'A webhook endpoint kept failing and was disabled.',
  agent_action_proposed: 'An AI agent proposed a change that waits for your approval.',
};
export const NOTIFICATION_TYPES = Object.keys(NOTIFICATION_TYPE_DESCRIPTIONS) as [NotificationType, ...NotificationType[]];
