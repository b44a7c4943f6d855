import { z } from 'zod';
import { createInvoiceBody, INVOICE_ACTIONS, invoiceActionBody, invoiceIdParams, listInvoicesQuery, updateInvoiceBody } from '../../../shared/domain/invoices/schema';
import { applyInvoiceAction, createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from '../../../shared/domain/invoices/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const invoicesRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('invoices.get')
      .input(listInvoicesQuery.optional())
      .query(({ ctx, input }) => listInvoices(db, ctx.principal.teamId, listInvoicesQuery.parse(input ?? {}))),
    getById: procedure('invoices.getById').input(invoiceIdParams).query(({ ctx, input }) => getInvoice(db, ctx.principal.teamId, input.id)),
    create: procedure('invoices.create')
      .input(createInvoiceBody)
      .mutation(({ ctx, input }) => createInvoice(db, ctx.principal.teamId, ctx.principal.userId, input)),
    update: procedure('invoices.update')
      .input(invoiceIdParams.extend({ data: updateInvoiceBody }))
      .mutation(({ ctx, input }) => updateInvoice(db, ctx.principal.teamId, input.id, input.data)),
    transition: procedure('invoices.transition')
      .input(invoiceIdParams.extend({ action: z.enum(INVOICE_ACTIONS), data: invoiceActionBody.optional() }))
      .mutation(({ ctx, input }) => applyInvoiceAction(db, ctx.principal.teamId, input.id, input.action, input.data ?? {})),
    delete: procedure('invoices.delete')
      .input(invoiceIdParams)
      .mutation(async ({ ctx, input }) => {
        await deleteInvoice(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });
