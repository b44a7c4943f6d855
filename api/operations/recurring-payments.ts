import { listRecurringPaymentsQuery, recurringPaymentSchema } from '../../shared/domain/recurring-payments/schema';
import { listRecurringPayments } from '../../shared/domain/recurring-payments/service';
import { page, query } from './declare';

/** Payments the team makes at a regular interval, detected from its transactions. */
export const recurringPayments = [
  query('recurringPayments.get', 'GET /recurring-payments', ['transactions.read'], {
    summary: 'List recurring payments',
    description:
      "Payments out to one counterparty (its name normalised: case, references and legal forms aside) in one currency, at least three at a regular interval (weekly, biweekly, monthly, quarterly or annually, a few days either way) and, when first found, at a similar amount (consecutive payments within 30 %). Their payments are marked `recurring` with the frequency. They are detected after a bank sync that added transactions, after an import, and before each weekly summary. Next expected payment first, keyset-paginated; `status` is read on today in the team's time zone.",
    input: listRecurringPaymentsQuery,
    output: page(recurringPaymentSchema),
    run: ({ principal, input }, { db }) => listRecurringPayments(db, principal.teamId, input),
  }),
];
