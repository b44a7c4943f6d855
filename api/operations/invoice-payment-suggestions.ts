import * as schema from '../../shared/domain/invoice-payment-suggestions/schema';
import * as service from '../../shared/domain/invoice-payment-suggestions/service';
import { mutation, one, page, query } from './declare';

export const invoicePaymentSuggestions = [
  query('invoicePaymentSuggestions.get', 'GET /invoice-payment-suggestions', ['invoices.read'], {
    formerly: ['invoices.paymentSuggestions'],
    summary: 'Bank transactions that may pay open invoices',
    description:
      "After each bank sync, new incoming transactions are matched against open invoices of the same currency. A transfer that names exactly one invoice and pays exactly what is due is recorded as its payment at once (notification `invoice_paid_by_transfer`); less certain matches wait here (`invoice_payment_suggested`): a named invoice paid in part, the customer's name with the amount due, or an amount only one open invoice has. Pending first by default.",
    input: schema.listPaymentSuggestionsQuery,
    output: page(schema.paymentSuggestionSchema),
    run: ({ principal, input }, { db }) => service.listPaymentSuggestions(db, principal.teamId, input),
  }),
  mutation('invoicePaymentSuggestions.confirm', 'POST /invoice-payment-suggestions/:id/confirm', ['invoices.write'], {
    formerly: ['invoices.confirmPaymentSuggestion'],
    summary: 'Confirm a payment suggestion',
    description:
      "Records the transaction as the invoice's payment (in part when it is less than due; paid in full ends the invoice's lifecycle) and declines the transaction's other suggestions. 409 once decided or when the invoice is no longer open.",
    input: schema.paymentSuggestionIdParams,
    output: one(schema.paymentSuggestionSchema),
    run: ({ principal, input }, { db, temporal }) =>
      service.confirmPaymentSuggestion(db, temporal, { teamId: principal.teamId, userId: principal.userId }, input.id),
  }),
  mutation('invoicePaymentSuggestions.decline', 'POST /invoice-payment-suggestions/:id/decline', ['invoices.write'], {
    formerly: ['invoices.declinePaymentSuggestion'],
    summary: 'Decline a payment suggestion',
    description: 'The transaction is not suggested for that invoice again. 409 once decided.',
    input: schema.paymentSuggestionIdParams,
    output: one(schema.paymentSuggestionSchema),
    run: ({ principal, input }, { db }) =>
      service.declinePaymentSuggestion(db, { teamId: principal.teamId, userId: principal.userId }, input.id),
  }),
];
