import { z } from 'zod';
import * as series from '../../shared/domain/invoice-series/service';
import * as seriesSchema from '../../shared/domain/invoice-series/schema';
import type { ApiDeps } from '../deps';
import { mutation, none, one, page, query } from './declare';

const idParams = z.object({ id: z.uuid() });
const scheduling = ({ temporal, config }: ApiDeps) => ({ temporal, intervalMs: config.INVOICE_SERIES_INTERVAL });

export const invoiceSeries = [
  query('invoiceSeries.get', 'GET /invoice-series', ['invoices.read'], {
    formerly: ['invoiceSeries.list'],
    summary: 'List recurring invoice series',
    description:
      "Newest first, keyset-paginated. Each with `nextIssueAt`: when its schedule issues the next invoice, worked out from the series' rhythm, start, end and the team's time zone as the schedule runs on them (no call to Temporal per row); null while paused or ended.",
    input: seriesSchema.listInvoiceSeriesQuery,
    output: page(seriesSchema.invoiceSeriesSchema),
    run: ({ principal, input }, { db, config }) => series.listInvoiceSeries(db, principal.teamId, input, config.INVOICE_SERIES_INTERVAL),
  }),
  query('invoiceSeries.getById', 'GET /invoice-series/:id', ['invoices.read'], {
    summary: 'Get a recurring invoice series',
    description:
      "With `nextIssueAt`: when its schedule issues the next invoice, worked out from the series' rhythm, start, end and the team's time zone as the schedule runs on them; null while paused or ended.",
    input: idParams,
    output: one(seriesSchema.invoiceSeriesSchema),
    run: ({ principal, input }, { db, config }) => series.getInvoiceSeries(db, principal.teamId, input.id, config.INVOICE_SERIES_INTERVAL),
  }),
  mutation('invoiceSeries.create', 'POST /invoice-series', ['invoices.write'], {
    status: 201,
    summary: 'Create a recurring invoice series',
    description:
      "A template (customer, currency, lines, note) and a rhythm: weekly on the start date's weekday, monthly or quarterly on its day of the month (29–31 issue on the 28th), yearly on its date, at 08:00 in the team's time zone; ends after `endAfter` invoices or on `endDate`. Each period's invoice is issued from the template and sent (`delivery: email`, the default) or only issued, and then followed by its InvoiceLifecycle. A series starting today issues its first invoice at once. 503 when the workflow service cannot be reached (nothing is saved).",
    input: seriesSchema.createInvoiceSeriesBody,
    output: one(seriesSchema.invoiceSeriesSchema),
    run: ({ principal, input }, deps) =>
      series.createInvoiceSeries(deps.db, scheduling(deps), { teamId: principal.teamId, userId: principal.userId }, input),
  }),
  mutation('invoiceSeries.update', 'PATCH /invoice-series/:id', ['invoices.write'], {
    body: 'data',
    summary: 'Edit, pause or resume a series',
    description:
      'Template changes apply from the next invoice on. `status: paused` pauses the schedule in Temporal (nothing is issued until it is resumed); `status: active` resumes it. 409 for an ended series.',
    input: idParams.extend({ data: seriesSchema.updateInvoiceSeriesBody }),
    output: one(seriesSchema.invoiceSeriesSchema),
    run: ({ principal, input }, deps) => series.updateInvoiceSeries(deps.db, scheduling(deps), principal.teamId, input.id, input.data),
  }),
  mutation('invoiceSeries.delete', 'DELETE /invoice-series/:id', ['invoices.write'], {
    summary: 'Delete a series',
    description: 'Its schedule is removed; the invoices it issued stay (their `seriesId` becomes null).',
    input: idParams,
    output: none,
    run: ({ principal, input }, { db, temporal }) => series.deleteInvoiceSeries(db, temporal, principal.teamId, input.id),
  }),
];
