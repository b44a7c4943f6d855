import { z } from 'zod';
import { SERIES_FREQUENCIES, SERIES_STATUSES, type SeriesLineItem } from '../../db/models';
import { currencyCode } from '../common/currency';
import { isoDate, pageSize } from '../common/query';
import type { Assert, SameType } from '../common/same-type';
import { lineItemSchema } from '../invoices/schema';

// The line_items column keeps the template's lines as the schema accepted them.
type _LineItemIsTheColumn = Assert<SameType<z.output<typeof lineItemSchema>, SeriesLineItem>>;

export const invoiceSeriesSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    customer: z.object({ id: z.uuid(), name: z.string() }),
    currency: z.string(),
    lineItems: z.array(
      z.object({
        ...lineItemSchema.shape,
        unit: z.string().nullable().optional(),
        vatRate: z.number().nullable().optional(),
        taxRate: z.number().nullable().optional(),
      }),
    ),
    discount: z.number(),
    note: z.string().nullable(),
    frequency: z.enum(SERIES_FREQUENCIES),
    startDate: z.string().meta({ description: 'The first period; its day of the week or month sets the rhythm.' }),
    endAfter: z.number().int().nullable().meta({ description: 'Ends after this many invoices; null: no count limit.' }),
    endDate: z.string().nullable().meta({ description: 'No invoice after this day; null: no end date.' }),
    dueInDays: z.number().int(),
    delivery: z.enum(['email', 'finalize']).meta({ description: 'email: each invoice is sent to the customer; finalize: issued only.' }),
    status: z.enum(SERIES_STATUSES),
    issuedCount: z.number().int(),
    lastIssuedAt: z.string().nullable(),
    nextIssueAt: z.string().nullable().meta({
      description:
        "When the schedule issues the next invoice (08:00 in the team's time zone on the rhythm's next day), worked out from the series as its schedule runs on it; null when paused, ended, or when nothing comes before `endDate`.",
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: 'InvoiceSeries',
    description:
      "Recurring invoices: a template and a rhythm. A Temporal schedule (`invoice-series:<id>`) issues the next invoice each period at 08:00 in the team's time zone.",
  });
export type InvoiceSeriesDto = z.infer<typeof invoiceSeriesSchema>;

const template = {
  name: z.string().trim().min(1).max(200).meta({ description: 'What the series is, e.g. "Hosting retainer".' }),
  currency: currencyCode,
  lineItems: z.array(lineItemSchema).min(1).max(100),
  discount: z.number().min(0).max(1e12).optional(),
  note: z.string().max(5000).nullable().optional(),
  dueInDays: z
    .number()
    .int()
    .min(0)
    .max(365)
    .optional()
    .meta({ description: 'Each invoice is due this many days after it is issued; default 30.' }),
  delivery: z.enum(['email', 'finalize']).optional().meta({ description: 'Default email.' }),
};

export const createInvoiceSeriesBody = z
  .object({
    customerId: z.uuid(),
    ...template,
    frequency: z.enum(SERIES_FREQUENCIES),
    startDate: isoDate
      .optional()
      .meta({ description: 'Default today (where the team is). A start today issues the first invoice at once.' }),
    endAfter: z.number().int().min(1).max(1000).nullable().optional(),
    endDate: isoDate.nullable().optional(),
  })
  .strict()
  .refine((b) => !b.endDate || !b.startDate || b.endDate >= b.startDate, {
    message: '`endDate` must not be before `startDate`',
    path: ['endDate'],
  })
  .meta({ id: 'CreateInvoiceSeries' });
export type CreateInvoiceSeriesBody = z.infer<typeof createInvoiceSeriesBody>;

export const updateInvoiceSeriesBody = z
  .object({
    name: template.name.optional(),
    lineItems: template.lineItems.optional(),
    discount: template.discount,
    note: template.note,
    dueInDays: template.dueInDays,
    delivery: template.delivery,
    endAfter: z.number().int().min(1).max(1000).nullable().optional(),
    endDate: isoDate.nullable().optional(),
    status: z
      .enum(['active', 'paused'])
      .optional()
      .meta({ description: 'paused: the schedule is paused in Temporal and issues nothing; active: resumes it.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateInvoiceSeries', description: 'Template changes apply from the next invoice on.' });
export type UpdateInvoiceSeriesBody = z.infer<typeof updateInvoiceSeriesBody>;

export const listInvoiceSeriesQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  status: z.enum(SERIES_STATUSES).optional(),
});
export type ListInvoiceSeriesQuery = z.infer<typeof listInvoiceSeriesQuery>;
