import { z } from 'zod';
import {
  createInvoiceSeries,
  deleteInvoiceSeries,
  getInvoiceSeries,
  listInvoiceSeries,
  updateInvoiceSeries,
} from '../../shared/domain/invoices/series';
import {
  createInvoiceSeriesBody,
  invoiceSeriesSchema,
  listInvoiceSeriesQuery,
  updateInvoiceSeriesBody,
} from '../../shared/domain/invoices/series-schema';
import type { ApiDeps } from '../deps';
import { mutation, query } from './declare';
import { none, one, page } from './output';

const idParams = z.object({ id: z.uuid() });
const scheduling = ({ temporal, config }: ApiDeps) => ({ temporal, intervalMs: config.INVOICE_SERIES_INTERVAL });

export const invoiceSeries = [
  query('invoiceSeries.get', {
    rest: 'GET /invoice-series',
    formerly: ['invoiceSeries.list'],
    scopes: ['invoices.read'],
    summary: 'List recurring invoice series',
    description: 'Newest first, keyset-paginated; `nextIssueAt` is on `GET /invoice-series/:id` only (it asks Temporal).',
    input: listInvoiceSeriesQuery,
    output: page(invoiceSeriesSchema),
    run: ({ principal, input }, { db }) => listInvoiceSeries(db, principal.teamId, input),
  }),
  query('invoiceSeries.getById', {
    rest: 'GET /invoice-series/:id',
    scopes: ['invoices.read'],
    summary: 'Get a recurring invoice series',
    description: 'With `nextIssueAt` from its Temporal schedule.',
    input: idParams,
    output: one(invoiceSeriesSchema),
    run: ({ principal, input }, { db, temporal }) => getInvoiceSeries(db, temporal, principal.teamId, input.id),
  }),
  mutation('invoiceSeries.create', {
    rest: 'POST /invoice-series',
    status: 201,
    scopes: ['invoices.write'],
    summary: 'Create a recurring invoice series',
    description:
      "A template (customer, currency, lines, note) and a rhythm: weekly on the start date's weekday, monthly or quarterly on its day of the month (29–31 issue on the 28th), yearly on its date, at 08:00 in the team's time zone; ends after `endAfter` invoices or on `endDate`. Each period's invoice is issued from the template and sent (`delivery: email`, the default) or only issued, and then followed by its InvoiceLifecycle. A series starting today issues its first invoice at once. 503 when the workflow service cannot be reached (nothing is saved).",
    input: createInvoiceSeriesBody,
    output: one(invoiceSeriesSchema),
    run: ({ principal, input }, deps) =>
      createInvoiceSeries(deps.db, scheduling(deps), { teamId: principal.teamId, userId: principal.userId }, input),
  }),
  mutation('invoiceSeries.update', {
    rest: 'PATCH /invoice-series/:id',
    body: 'data',
    scopes: ['invoices.write'],
    summary: 'Edit, pause or resume a series',
    description:
      'Template changes apply from the next invoice on. `status: paused` pauses the schedule in Temporal (nothing is issued until it is resumed); `status: active` resumes it. 409 for an ended series.',
    input: idParams.extend({ data: updateInvoiceSeriesBody }),
    output: one(invoiceSeriesSchema),
    run: ({ principal, input }, deps) => updateInvoiceSeries(deps.db, scheduling(deps), principal.teamId, input.id, input.data),
  }),
  mutation('invoiceSeries.delete', {
    rest: 'DELETE /invoice-series/:id',
    scopes: ['invoices.write'],
    summary: 'Delete a series',
    description: 'Its schedule is removed; the invoices it issued stay (their `seriesId` becomes null).',
    input: idParams,
    output: none,
    run: ({ principal, input }, { db, temporal }) => deleteInvoiceSeries(db, temporal, principal.teamId, input.id),
  }),
];
