import {
  confirmPaymentSuggestion,
  declinePaymentSuggestion,
  listPaymentSuggestions,
  listPaymentSuggestionsQuery,
  paymentSuggestionIdParams,
  paymentSuggestionSchema,
} from '../../shared/domain/invoices/payment-matching';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { one, page } from './replies';

const tag = 'Invoices';

export const invoicePaymentSuggestionRoutes = ({ db, temporal }: Pick<ApiDeps, 'db' | 'temporal'>) => [
  defineRoute({
    method: 'get',
    path: '/invoice-payment-suggestions',
    scopes: ['invoices.read'],
    tag,
    summary: 'Bank transactions that may pay open invoices',
    description:
      "After each bank sync, new incoming transactions are matched against open invoices of the same currency. A transfer that names exactly one invoice and pays exactly what is due is recorded as its payment at once (notification `invoice_paid_by_transfer`); less certain matches wait here (`invoice_payment_suggested`): a named invoice paid in part, the customer's name with the amount due, or an amount only one open invoice has. Pending first by default.",
    query: listPaymentSuggestionsQuery,
    reply: page(paymentSuggestionSchema),
    handler: ({ principal, query }) => listPaymentSuggestions(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'post',
    path: '/invoice-payment-suggestions/:id/confirm',
    scopes: ['invoices.write'],
    tag,
    summary: 'Confirm a payment suggestion',
    description:
      "Records the transaction as the invoice's payment (in part when it is less than due; paid in full ends the invoice's lifecycle) and declines the transaction's other suggestions. 409 once decided or when the invoice is no longer open.",
    params: paymentSuggestionIdParams,
    reply: one(paymentSuggestionSchema),
    handler: ({ principal, params }) =>
      confirmPaymentSuggestion(db, temporal, { teamId: principal.teamId, userId: principal.userId }, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/invoice-payment-suggestions/:id/decline',
    scopes: ['invoices.write'],
    tag,
    summary: 'Decline a payment suggestion',
    description: 'The transaction is not suggested for that invoice again. 409 once decided.',
    params: paymentSuggestionIdParams,
    reply: one(paymentSuggestionSchema),
    handler: ({ principal, params }) => declinePaymentSuggestion(db, { teamId: principal.teamId, userId: principal.userId }, params.id),
  }),
];
