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
import { defineRoute } from './define';
import { none, one, page } from './replies';

const tag = 'Invoices';
const idParams = z.object({ id: z.uuid() });

export const invoiceSeriesRoutes = ({ db, temporal, config }: Pick<ApiDeps, 'db' | 'temporal' | 'config'>) => {
  // Read when called: the route table is also built without a config (OpenAPI, tests).
  const scheduling = () => ({ temporal, intervalMs: config.INVOICE_SERIES_INTERVAL });
  return [
    defineRoute({
      method: 'get',
      path: '/invoice-series',
      scopes: ['invoices.read'],
      tag,
      summary: 'List recurring invoice series',
      description: 'Newest first, keyset-paginated; `nextIssueAt` is on `GET /invoice-series/:id` only (it asks Temporal).',
      query: listInvoiceSeriesQuery,
      reply: page(invoiceSeriesSchema),
      handler: ({ principal, query }) => listInvoiceSeries(db, principal.teamId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/invoice-series/:id',
      scopes: ['invoices.read'],
      tag,
      summary: 'Get a recurring invoice series',
      description: 'With `nextIssueAt` from its Temporal schedule.',
      params: idParams,
      reply: one(invoiceSeriesSchema),
      handler: ({ principal, params }) => getInvoiceSeries(db, temporal, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/invoice-series',
      scopes: ['invoices.write'],
      tag,
      summary: 'Create a recurring invoice series',
      description:
        "A template (customer, currency, lines, note) and a rhythm: weekly on the start date's weekday, monthly or quarterly on its day of the month (29–31 issue on the 28th), yearly on its date, at 08:00 in the team's time zone; ends after `endAfter` invoices or on `endDate`. Each period's invoice is issued from the template and sent (`delivery: email`, the default) or only issued, and then followed by its InvoiceLifecycle. A series starting today issues its first invoice at once. 503 when the workflow service cannot be reached (nothing is saved).",
      body: createInvoiceSeriesBody,
      reply: one(invoiceSeriesSchema),
      status: 201,
      handler: ({ principal, body }) => createInvoiceSeries(db, scheduling(), { teamId: principal.teamId, userId: principal.userId }, body),
    }),
    defineRoute({
      method: 'patch',
      path: '/invoice-series/:id',
      scopes: ['invoices.write'],
      tag,
      summary: 'Edit, pause or resume a series',
      description:
        'Template changes apply from the next invoice on. `status: paused` pauses the schedule in Temporal (nothing is issued until it is resumed); `status: active` resumes it. 409 for an ended series.',
      params: idParams,
      body: updateInvoiceSeriesBody,
      reply: one(invoiceSeriesSchema),
      handler: ({ principal, params, body }) => updateInvoiceSeries(db, scheduling(), principal.teamId, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/invoice-series/:id',
      scopes: ['invoices.write'],
      tag,
      summary: 'Delete a series',
      description: 'Its schedule is removed; the invoices it issued stay (their `seriesId` becomes null).',
      params: idParams,
      reply: none,
      handler: ({ principal, params }) => deleteInvoiceSeries(db, temporal, principal.teamId, params.id),
    }),
  ];
};
