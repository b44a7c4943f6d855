import { formatAmountWithCode as money } from '../currencies/money';
import type { NotificationMetadata, NotificationType } from './types';

/** What a notification says to a person: one line for the list and the mail's subject, and a longer text for the mail. */
export interface NotificationMessage {
  title: string;
  body: string;
}

type Writers = { [T in NotificationType]: (m: NotificationMetadata[T]) => NotificationMessage };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const bank = (name: string | null) => name ?? 'your bank';

const writers: Writers = {
  transactions_created: (m) => ({
    title: `${plural(m.count, 'new transaction', 'new transactions')} from the bank`,
    body: `A ${m.manualSync ? 'sync you asked for' : 'bank sync'} brought ${plural(m.count, 'new transaction', 'new transactions')}. Categorise them and attach their receipts.`,
  }),
  pending_transactions_expired: (m) => ({
    title: `${plural(m.count, 'pending transaction', 'pending transactions')} never booked`,
    body: `${bank(m.institutionName)} never booked ${plural(m.count, 'pending transaction', 'pending transactions')} within ${m.maxAgeDays} days, so ${m.count === 1 ? 'it was' : 'they were'} removed: ${m.transactions.map((t) => `${t.name} (${t.date}, ${money(t.amount, t.currency)})`).join(', ')}${m.count > m.transactions.length ? ', …' : ''}.`,
  }),
  inbox_needs_review: () => ({
    title: 'A receipt needs your review',
    body: 'A receipt in the inbox has a suggested transaction. Confirm or decline the match.',
  }),
  receipt_matched: () => ({
    title: 'A receipt was matched',
    body: 'A receipt in the inbox matched its transaction so closely that it was attached to it automatically.',
  }),
  invoice_paid: (m) => ({
    title: `Invoice ${m.invoiceNumber} was paid`,
    body: `The payment provider reports invoice ${m.invoiceNumber} paid.`,
  }),
  invoice_refunded: (m) => ({
    title: `Invoice ${m.invoiceNumber} was refunded`,
    body: `The payment provider reports a refund of invoice ${m.invoiceNumber}.`,
  }),
  invoice_payment_failed: (m) => ({
    title: `A payment for invoice ${m.invoiceNumber} failed`,
    body: `The payment provider reports a failed payment for invoice ${m.invoiceNumber}${m.reason ? `: ${m.reason}` : '.'}`,
  }),
  invoice_payment_unapplied: (m) => ({
    title: `A ${m.event} for invoice ${m.invoiceNumber} was not applied`,
    body: `The payment provider reports a ${m.event} for invoice ${m.invoiceNumber}, which is ${m.invoiceStatus}. It was recorded but did not change the invoice; check it with the provider.`,
  }),
  team_member_joined: (m) => ({
    title: `A new ${m.role} joined the team`,
    body: `An invitation was accepted: a new ${m.role} is now part of the team.`,
  }),
  bank_connection_disconnected: (m) => ({
    title: `The connection to ${bank(m.institutionName)} needs attention`,
    body: `${bank(m.institutionName)} stopped sharing data (${m.reason ?? m.code}). Reconnect it to keep transactions coming.`,
  }),
  bank_connection_reconnected: (m) => ({
    title: `The connection to ${bank(m.institutionName)} works again`,
    body: `${bank(m.institutionName)} is connected again; a sync is catching up on what was missed.`,
  }),
  bank_connection_consent_expiring: (m) => ({
    title: `The connection to ${bank(m.institutionName)} expires on ${m.expiresAt.slice(0, 10)}`,
    body: `${bank(m.institutionName)} stops sharing data on ${m.expiresAt.slice(0, 10)} unless you reconnect it before then.`,
  }),
  bank_connection_consent_expired: (m) => ({
    title: `The connection to ${bank(m.institutionName)} expired`,
    body: `The consent you gave ${bank(m.institutionName)} has ended, so no new transactions arrive. Reconnect it to renew the consent.`,
  }),
  document_unreadable: (m) => ({
    title: `${m.name} could not be read`,
    body: `The file is kept, but its text could not be read (${m.reason}). Upload a clearer copy, or fill in what it says by hand.`,
  }),
  api_key_created: (m) => ({
    title: `API key "${m.name}" was created`,
    body: `A member created the API key "${m.name}" with access to ${m.scopes.join(', ')}. If nobody in the team expected it, delete it in the settings.`,
  }),
  invoice_overdue: (m) => ({
    title: `Invoice ${m.invoiceNumber} is overdue`,
    body: `Invoice ${m.invoiceNumber} was due on ${m.dueDate}; ${money(m.amountDue, m.currency)} is still open.`,
  }),
  invoice_undeliverable: (m) => ({
    title: `Invoice ${m.invoiceNumber} could not be emailed`,
    body: `The ${m.kind === 'credit_note' ? 'credit note' : m.kind} for ${m.invoiceNumber} was not sent: its customer has no email address. Add one and send it again.`,
  }),
  invoice_payment_suggested: (m) => ({
    title: `Is this the payment of invoice ${m.invoiceNumber}?`,
    body: `An incoming transfer of ${money(m.amount, m.currency)} may pay invoice ${m.invoiceNumber}. Confirm or decline the match.`,
  }),
  invoice_paid_by_transfer: (m) => ({
    title: `Invoice ${m.invoiceNumber} was paid by bank transfer`,
    body: `A transfer of ${money(m.amount, m.currency)} naming invoice ${m.invoiceNumber} paid it in full; it was recorded as the payment.`,
  }),
  insight_ready: (m) => ({
    title: `Your week in numbers: ${m.periodStart} to ${m.periodEnd}`,
    body: `The summary of ${m.periodStart} to ${m.periodEnd} is ready: income, spending, what changed most, receipts waiting and runway.`,
  }),
  export_ready: (m) => ({
    title: `Your transaction export is ready: ${plural(m.rows, 'transaction', 'transactions')}`,
    body: `The export of ${plural(m.rows, 'transaction', 'transactions')} with ${plural(m.receipts, 'receipt', 'receipts')} is stored in the documents as a ZIP (transactions.csv, transactions.xlsx, receipts/).`,
  }),
  accountant_link_shared: (m) => ({
    title: `An export was shared with ${m.email}`,
    body: `A link to download the export was emailed to ${m.email}; it works without sign-in until ${m.expiresAt} unless revoked, and each use is in the audit trail.`,
  }),
  webhook_endpoint_disabled: (m) => ({
    title: 'A webhook endpoint was disabled',
    body: `Every delivery to ${m.url} has failed since ${m.failingSince}${m.lastError ? ` (last: ${m.lastError})` : ''}, so it was disabled. Fix it, then enable it again; replay the deliveries it missed.`,
  }),
  agent_action_proposed: (m) => ({
    title: `${m.clientName ?? 'An AI agent'} asks for your approval`,
    body: `${m.clientName ?? 'An AI agent'} proposes: ${m.summary}. Nothing changes until someone approves it (POST /agent-actions/${m.agentActionId}/approve, or the chat buttons); it expires at ${m.expiresAt}.`,
  }),
};

export function messageOf<T extends NotificationType>(type: T, metadata: NotificationMetadata[T]): NotificationMessage {
  return (writers[type] as (m: NotificationMetadata[T]) => NotificationMessage)(metadata);
}
