import { z } from 'zod';
import { RECURRING_FREQUENCIES } from '../../db/models';
import { pageSize } from '../common/query';

const money = z.number().meta({ description: 'Signed as the transactions are: negative, a payment out.', example: -15.99 });

export const recurringPaymentSchema = z
  .object({
    id: z.uuid(),
    counterparty: z.object({
      name: z.string().meta({ description: 'As the latest payment names it.', example: 'Netflix.com' }),
      key: z.string().meta({
        description: 'The normalised name the payments are grouped by (lower case, no references or legal forms).',
        example: 'netflix com',
      }),
    }),
    currency: z.string(),
    frequency: z.enum(RECURRING_FREQUENCIES),
    expectedAmount: money.meta({ description: 'What the next payment is expected to be: the median of the last three.' }),
    nextExpectedDate: z.string().meta({ description: 'When the next payment is expected, YYYY-MM-DD.', example: '2026-12-03' }),
    status: z.enum(['active', 'missing', 'ended']).meta({
      description:
        "`active` until the expected date and a grace period (3 days for weekly, 4 biweekly, 7 monthly, 14 quarterly, 30 annually) have passed in the team's time zone; then `missing`; `ended` once three payments in a row have not come.",
    }),
    lastPayment: z.object({
      transactionId: z.uuid().nullable().meta({ description: 'Null when that transaction was deleted.' }),
      date: z.string(),
      amount: money,
    }),
    occurrences: z.number().int().meta({ description: 'Payments in the series so far.' }),
    firstPaymentDate: z.string(),
    detectedOn: z.string().meta({ description: 'The date of the payment that first made it a series.' }),
    updatedAt: z.iso.datetime().meta({ description: 'When the detection last changed it.' }),
  })
  .meta({ id: 'RecurringPayment', description: 'Payments the team makes to one counterparty at a regular interval, as detected.' });
export type RecurringPaymentDto = z.infer<typeof recurringPaymentSchema>;

export const listRecurringPaymentsQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
});
export type ListRecurringPaymentsQuery = z.infer<typeof listRecurringPaymentsQuery>;

/** What the weekly insight says of one recurring payment. */
export const recurringMentionSchema = z.object({
  id: z.uuid(),
  counterparty: z.string(),
  frequency: z.enum(RECURRING_FREQUENCIES),
  currency: z.string(),
  expectedAmount: money,
  nextExpectedDate: z.string(),
  lastPaymentDate: z.string(),
  lastAmount: money,
  previousAmount: money.meta({ description: 'The usual amount before the last payment.' }),
});
