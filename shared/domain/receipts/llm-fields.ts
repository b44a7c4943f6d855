import { z } from 'zod';
import { currencyCode } from '../common/currency';
import { isoDate } from '../common/query';
import { roundMoney } from '../currencies/money';
import type { ReceiptFields } from './extract';

/** What the model is asked: the fields, and to leave out what it cannot read with certainty. */
export const LLM_RECEIPT_SYSTEM = [
  'You read receipts and invoices for a bookkeeping system.',
  'Return the total amount paid (a positive number), its ISO 4217 currency code, the purchase date (YYYY-MM-DD),',
  'the merchant or vendor name as a customer would recognise it, the tax (VAT) amount and the tax rate in percent.',
  'Use null for anything you cannot read with certainty: a missing value is better than a wrong one.',
].join(' ');

const nullable = (t: Record<string, unknown>) => ({ anyOf: [t, { type: 'null' }] });
/** The JSON schema the model answers in (strict structured output: every key present, null when unknown). */
export const LLM_RECEIPT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'currency', 'date', 'merchant', 'taxAmount', 'taxRate'],
  properties: {
    amount: nullable({ type: 'number' }),
    currency: nullable({ type: 'string', description: 'ISO 4217, e.g. EUR' }),
    date: nullable({ type: 'string', description: 'YYYY-MM-DD' }),
    merchant: nullable({ type: 'string' }),
    taxAmount: nullable({ type: 'number' }),
    taxRate: nullable({ type: 'number', description: 'percent, e.g. 19' }),
  },
};

// zod 4's number() refuses NaN and ±Infinity by itself.
const money = z.number().positive().max(1e12);
/** Each field on its own: one bad value from the model empties that field, not the whole answer. */
const llmField = {
  amount: money,
  currency: z.string().trim().toUpperCase().pipe(currencyCode),
  date: isoDate,
  merchant: z.string().trim().min(1).max(200),
  taxAmount: z.number().min(0).max(1e12),
  taxRate: z.number().min(0).max(100),
};

/** The model's answer, field by field; anything missing or malformed stays null. */
export function fieldsFromLlm(answer: unknown): ReceiptFields {
  const raw = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const read = <K extends keyof typeof llmField>(k: K) => {
    const r = llmField[k].safeParse(raw[k]);
    return r.success ? (r.data as z.output<(typeof llmField)[K]>) : null;
  };
  // Amounts in the receipt currency's minor unit (cents when it is not known).
  const currency = read('currency');
  const amount = read('amount');
  const taxAmount = read('taxAmount');
  return {
    amount: amount === null ? null : roundMoney(amount, currency),
    currency,
    date: read('date'),
    merchant: read('merchant'),
    taxAmount: taxAmount === null ? null : roundMoney(taxAmount, currency),
    taxRate: read('taxRate'),
  };
}
