import { z } from 'zod';
import { pageSize } from '../common/query';

export const creditNoteLineInput = z
  .object({
    line: z
      .number()
      .int()
      .min(0)
      .max(499)
      .meta({ description: "The invoice line to credit: its index in the invoice's `lineItems` (0 is the first)." }),
    quantity: z.number().positive().max(1e9).optional().meta({ description: "Credit this many units at the line's unit price." }),
    amount: z
      .number()
      .positive()
      .max(1e12)
      .optional()
      .meta({ description: "Credit this net amount (before VAT and tax) of the line; the line's VAT and tax rates apply." }),
  })
  .strict()
  .refine((l) => l.quantity === undefined || l.amount === undefined, { message: 'give quantity or amount, not both', path: ['amount'] })
  .meta({ id: 'CreditNoteLineInput', description: 'Without quantity or amount, what is left to credit of the whole line.' });

export const createCreditNoteBody = z
  .object({
    lineItems: z
      .array(creditNoteLineInput)
      .min(1)
      .max(500)
      .optional()
      .refine((lines) => !lines || new Set(lines.map((l) => l.line)).size === lines.length, { message: 'each invoice line at most once' })
      .meta({
        description: "The lines and amounts to credit; leave it out to credit everything that is left (with the invoice's discount).",
      }),
    reason: z.string().trim().min(1).max(1000).optional().meta({ description: 'Printed on the credit note.' }),
    send: z.boolean().optional().meta({
      description: "Email it to the customer (billingEmail, else email) with its PDF, through the invoice's lifecycle run. Default false.",
    }),
  })
  .strict()
  .meta({ id: 'CreateCreditNote' });
export type CreateCreditNoteBody = z.infer<typeof createCreditNoteBody>;

export const creditNoteSchema = z
  .object({
    id: z.uuid(),
    creditNoteNumber: z.string().meta({ description: 'Its own gap-free series per team and year of issue: `CN-2026-0001`.' }),
    typeCode: z.literal('381').meta({ description: 'The EN 16931 document type code of a credit note.' }),
    invoice: z.object({ id: z.uuid(), invoiceNumber: z.string().nullable(), issueDate: z.string().nullable() }).meta({
      description: 'The invoice it corrects.',
    }),
    customer: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    currency: z.string(),
    lineItems: z.array(
      z.object({
        line: z.number().int().meta({ description: "The invoice line it credits (index in the invoice's `lineItems`)." }),
        name: z.string(),
        quantity: z.number(),
        unit: z.string().nullable(),
        price: z.number(),
        vatRate: z.number().nullable(),
        taxRate: z.number().nullable(),
        amount: z.number().meta({ description: 'Net amount credited on the line, in the minor unit.' }),
      }),
    ),
    subtotal: z.number(),
    vat: z.number(),
    tax: z.number(),
    discount: z
      .number()
      .meta({ description: "The part of the invoice's discount it gives back (the full remainder credits what is left of it)." }),
    amount: z
      .number()
      .meta({ description: 'What it credits, gross: subtotal + vat + tax − discount. Positive; printed as negative amounts.' }),
    reason: z.string().nullable(),
    issueDate: z.string(),
    emailDelivery: z.boolean().meta({ description: 'It is (or was) emailed to the customer.' }),
    sentAt: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'CreditNote', description: 'A credit note: a document of its own that credits all or part of an issued invoice.' });
export type CreditNoteDto = z.infer<typeof creditNoteSchema>;

export const creditNoteIdParams = z.object({ id: z.uuid() });
export const listCreditNotesQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
  invoiceId: z.uuid().optional().meta({ description: 'Only those of this invoice.' }),
});
export type ListCreditNotesQuery = z.infer<typeof listCreditNotesQuery>;
