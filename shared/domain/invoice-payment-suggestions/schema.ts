import { z } from 'zod';
import { PAYMENT_SUGGESTION_STATUSES } from '../../db/models';
import { pageSize } from '../common/query';

export const paymentSuggestionSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(PAYMENT_SUGGESTION_STATUSES),
    reason: z.enum(['number', 'customer', 'amount']).meta({
      description:
        "number: the transfer names the invoice; customer: the payer is the invoice's customer; amount: only this open invoice is due at that amount.",
    }),
    invoice: z.object({ id: z.uuid(), invoiceNumber: z.string(), amountDue: z.number(), currency: z.string() }),
    transaction: z.object({ id: z.uuid(), date: z.string(), name: z.string(), amount: z.number(), currency: z.string() }),
    createdAt: z.iso.datetime(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: 'InvoicePaymentSuggestion', description: 'An incoming bank transaction that may be the payment of an open invoice.' });
export type PaymentSuggestionDto = z.infer<typeof paymentSuggestionSchema>;

export const listPaymentSuggestionsQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  status: z.enum(PAYMENT_SUGGESTION_STATUSES).default('pending'),
});
export const paymentSuggestionIdParams = z.object({ id: z.uuid() });
