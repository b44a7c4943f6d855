import { z } from 'zod';
import { INVOICE_STATUSES } from '../../db/models';
import { isoDate, isoTimestamp, multi, pageSize } from '../common/query';
import { sortParam } from '../common/sort';
import { currencyCode } from '../common/currency';

const currency = currencyCode;

/** A line as a client writes it: a misspelt field (`vat` for `vatRate`) is refused, never dropped. */
export const lineItemSchema = z
  .object({
    name: z.string().trim().min(1).max(500),
    quantity: z.number().positive().max(1e9).default(1),
    unit: z.string().max(20).nullable().optional(),
    price: z.number().min(-1e12).max(1e12).meta({ description: 'Unit price, before tax.' }),
    vatRate: z.number().min(0).max(100).nullable().optional().meta({ description: 'VAT in percent.' }),
    taxRate: z.number().min(0).max(100).nullable().optional().meta({ description: 'Other sales tax in percent.' }),
  })
  .strict();

export const invoiceLifecycleSchema = z
  .object({
    stage: z.enum(['starting', 'scheduled', 'sending', 'awaiting_payment', 'overdue', 'ended']),
    nextAction: z.enum(['send', 'email', 'mark-overdue', 'remind', 'recheck', 'email-credit-note']).nullable().meta({
      description:
        'send: a scheduled invoice goes out; email: to the customer; mark-overdue: at the due date; remind: a reminder on the team cadence; recheck: nothing due, it looks again; email-credit-note: a credit note of the invoice goes to the customer.',
    }),
    nextActionAt: z.string().nullable(),
    emailsSent: z.number().int().meta({ description: 'Emails this run has sent (the invoice and reminders).' }),
  })
  .meta({ id: 'InvoiceLifecycle', description: 'The durable workflow `invoice:<id>` that sends, chases and closes the invoice.' });

export const invoiceSchema = z
  .object({
    id: z.uuid(),
    invoiceNumber: z.string().nullable().meta({
      description:
        "Given when the invoice is issued (finalize, send, a scheduled send): the team's prefix and the next number of its gap-free series (`INV-0001`). Null on a draft, unless a number was chosen when it was created.",
    }),
    status: z.enum(INVOICE_STATUSES),
    customer: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    currency: z.string(),
    lineItems: z.array(
      z.object({
        ...lineItemSchema.shape,
        quantity: z.number(),
        unit: z.string().nullable(),
        vatRate: z.number().nullable(),
        taxRate: z.number().nullable(),
      }),
    ),
    subtotal: z.number().meta({ description: "Sum of the lines' quantity × price, each rounded to the currency's minor unit." }),
    vat: z.number().meta({ description: "Each line's VAT in the currency's minor unit, summed." }),
    tax: z.number().meta({ description: "Each line's other tax in the currency's minor unit, summed." }),
    discount: z.number(),
    amount: z.number().meta({ description: 'Total due: subtotal + vat + tax − discount.' }),
    amountPaid: z.number().meta({ description: 'What recorded payments add up to (`POST /invoices/:id/payments`).' }),
    amountCredited: z.number().meta({ description: 'What its credit notes add up to (`POST /invoices/:id/credit-notes`), gross.' }),
    amountDue: z.number().meta({
      description: 'What is still to be paid: `amount − amountPaid − amountCredited` while open, 0 once paid, canceled or refunded.',
    }),
    issueDate: z.string().nullable(),
    dueDate: z.string().nullable(),
    note: z.string().nullable(),
    scheduledAt: z.string().nullable().meta({ description: 'A scheduled invoice: when it is emailed to the customer.' }),
    sentAt: z.string().nullable().meta({ description: 'When the invoice was emailed to the customer.' }),
    emailDelivery: z
      .boolean()
      .meta({ description: 'Issued by `send` or `schedule`: the lifecycle emails it (and its reminders) to the customer.' }),
    paidAt: z.string().nullable(),
    paymentReference: z.string().nullable(),
    refundedAt: z.string().nullable(),
    canceledAt: z.string().nullable(),
    seriesId: z.uuid().nullable().meta({ description: 'The recurring series that issued it (`/invoice-series`).' }),
    viewedAt: z
      .string()
      .nullable()
      .meta({ description: 'When the customer last opened the public link (the first view of each day is recorded).' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    lifecycle: invoiceLifecycleSchema
      .nullable()
      .optional()
      .meta({ description: 'On `GET /invoices/:id` only: what the InvoiceLifecycle run does next and when; null when none runs.' }),
  })
  .meta({ id: 'Invoice', description: 'An invoice to a customer. Totals are computed from the line items.' });

export type InvoiceDto = z.infer<typeof invoiceSchema>;

const editable = {
  customerId: z.uuid().nullable().optional(),
  currency: currency.optional(),
  lineItems: z.array(lineItemSchema).min(1).max(500).optional(),
  discount: z.number().min(0).max(1e12).optional(),
  issueDate: isoDate.nullable().optional(),
  dueDate: isoDate.nullable().optional(),
  note: z.string().max(5000).nullable().optional(),
};

export const createInvoiceBody = z
  .object({
    invoiceNumber: z.string().trim().min(1).max(50).optional().meta({
      description:
        "Unique per team. Leave it out to have the invoice numbered when it is issued, from the team's gap-free series (its prefix and next number: INV-0001, …; see the team's `invoicePrefix` and `invoiceNextNumber`). A number chosen here stays outside the series; the series passes over it.",
    }),
    ...editable,
    currency,
    lineItems: z.array(lineItemSchema).min(1).max(500),
  })
  .strict()
  .refine((b) => !b.issueDate || !b.dueDate || b.issueDate <= b.dueDate, {
    message: '`dueDate` must not be before `issueDate`',
    path: ['dueDate'],
  })
  .meta({ id: 'CreateInvoice', description: 'Creates a draft.' });

export const updateInvoiceBody = z
  .object(editable)
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateInvoice', description: 'Only drafts can be edited: an issued invoice is locked (409 naming the fields).' });

export const INVOICE_ACTIONS = ['finalize', 'send', 'mark-paid', 'cancel'] as const;
export const invoiceActionBody = z
  .object({
    paidAt: isoTimestamp.optional().meta({ description: 'mark-paid: when it was paid; default now.' }),
    paymentReference: z.string().max(200).optional().meta({ description: 'mark-paid: e.g. the bank transfer reference.' }),
  })
  .strict()
  .default({});

export const scheduleInvoiceBody = z
  .object({ sendAt: isoTimestamp.meta({ description: 'When the invoice is issued and emailed; must be in the future.' }) })
  .strict()
  .meta({ id: 'ScheduleInvoice' });

export const invoicePaymentBody = z
  .object({
    amount: z.number().positive().max(1e12).meta({ description: "In the invoice's currency; at most what is due." }),
    paidAt: isoTimestamp.optional().meta({ description: 'When it was paid; default now.' }),
    reference: z.string().trim().max(200).optional().meta({ description: 'E.g. the bank transfer reference.' }),
  })
  .strict()
  .meta({ id: 'InvoicePayment', description: 'A payment received outside the payment provider, in full or in part.' });

export type CreateInvoiceBody = z.infer<typeof createInvoiceBody>;
export type UpdateInvoiceBody = z.infer<typeof updateInvoiceBody>;

export const invoiceIdParams = z.object({ id: z.uuid() });
export const INVOICE_SORT_FIELDS = ['createdAt', 'issueDate', 'dueDate', 'amount', 'invoiceNumber'] as const;
export const listInvoicesQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
  sort: sortParam(INVOICE_SORT_FIELDS, '-createdAt'),
  statuses: multi(z.enum(INVOICE_STATUSES)).meta({ description: 'One or more statuses.' }),
  customers: multi(z.uuid()).meta({ description: 'Customer ids.' }),
  q: z.string().trim().min(1).max(100).optional().meta({ description: 'Search in invoice number and customer name.' }),
});
export type ListInvoicesQuery = z.infer<typeof listInvoicesQuery>;

export const publicLinkSchema = z
  .object({
    url: z.string().meta({
      description:
        'Shown once: only its hash is kept. Making a new link revokes this one. Absolute when PUBLIC_URL is configured, else a path on this server.',
    }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'InvoicePublicLink', description: 'A link that shows the invoice and its PDF to anyone who has it, without signing in.' });

export const invoiceFromTrackerBody = z
  .object({
    projectId: z.uuid(),
    from: isoDate.meta({ description: 'First day of the entries to bill, inclusive.' }),
    to: isoDate.meta({ description: 'Last day, inclusive.' }),
    issueDate: isoDate.optional(),
    dueDate: isoDate.optional(),
    note: z.string().max(5000).optional(),
  })
  .strict()
  .refine((b) => b.from <= b.to, { message: '`from` must not be after `to`', path: ['from'] })
  .meta({ id: 'InvoiceFromTracker' });
export type InvoiceFromTrackerBody = z.infer<typeof invoiceFromTrackerBody>;

const summaryGroup = z.object({
  count: z.number().int(),
  amount: z.number().meta({ description: "In the team's base currency, at the newest stored rate." }),
  byCurrency: z.array(z.object({ currency: z.string(), count: z.number().int(), amount: z.number() })),
});

export const invoiceSummarySchema = z
  .object({
    currency: z.string().nullable().meta({ description: "The team's base currency (else its invoices' most used one)." }),
    draft: summaryGroup,
    outstanding: summaryGroup.meta({
      description:
        'Sent and not yet paid (unpaid, overdue, scheduled); the amounts are what is still due (`amountDue`: less payments and credit notes).',
    }),
    overdue: summaryGroup.meta({ description: 'Outstanding past the due date, by what is still due.' }),
    paidThisMonth: summaryGroup.meta({ description: 'Paid since the first of this month (UTC).' }),
    unconvertedCurrencies: z
      .array(z.string())
      .meta({ description: 'Currencies without a stored rate: in `byCurrency`, left out of `amount`.' }),
  })
  .meta({ id: 'InvoiceSummary' });
