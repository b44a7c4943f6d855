import { z } from 'zod';
import { pageOf } from '../../../shared/domain/common/page';
import {
  createInvoiceSeries,
  deleteInvoiceSeries,
  getInvoiceSeries,
  listInvoiceSeries,
  updateInvoiceSeries,
} from '../../../shared/domain/invoices/series';
import {
  createInvoiceSeriesBody,
  invoiceSeriesSchema,
  listInvoiceSeriesQuery,
  updateInvoiceSeriesBody,
} from '../../../shared/domain/invoices/series-schema';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

const idInput = z.object({ id: z.uuid() });

export const invoiceSeriesRouter = ({ db, temporal, config }: Pick<ApiDeps, 'db' | 'temporal' | 'config'>) => {
  // Read when called: the route table is also built without a config (OpenAPI, tests).
  const scheduling = () => ({ temporal, intervalMs: config.INVOICE_SERIES_INTERVAL });
  return router({
    list: procedure('invoices.read')
      .input(listInvoiceSeriesQuery.prefault({}))
      .output(pageOf(invoiceSeriesSchema))
      .query(({ ctx, input }) => listInvoiceSeries(db, ctx.principal.teamId, input)),
    getById: procedure('invoices.read')
      .input(idInput)
      .output(invoiceSeriesSchema)
      .query(({ ctx, input }) => getInvoiceSeries(db, temporal, ctx.principal.teamId, input.id)),
    create: procedure('invoices.write')
      .input(createInvoiceSeriesBody)
      .output(invoiceSeriesSchema)
      .mutation(({ ctx, input }) =>
        createInvoiceSeries(db, scheduling(), { teamId: ctx.principal.teamId, userId: ctx.principal.userId }, input),
      ),
    update: procedure('invoices.write')
      .input(idInput.extend({ data: updateInvoiceSeriesBody }))
      .output(invoiceSeriesSchema)
      .mutation(({ ctx, input }) => updateInvoiceSeries(db, scheduling(), ctx.principal.teamId, input.id, input.data)),
    delete: procedure('invoices.write')
      .input(idInput)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteInvoiceSeries(db, temporal, ctx.principal.teamId, input.id);
      }),
  });
};
