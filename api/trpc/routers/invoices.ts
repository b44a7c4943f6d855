import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import {
  createInvoiceBody,
  INVOICE_ACTIONS,
  invoiceActionBody,
  invoiceFromTrackerBody,
  invoiceIdParams,
  invoiceSchema,
  invoiceSummarySchema,
  listInvoicesQuery,
  publicLinkSchema,
  updateInvoiceBody,
} from '../../../shared/domain/invoices/schema';
import { createInvoiceFromTracker } from '../../../shared/domain/invoices/from-tracker';
import { invoiceSummary } from '../../../shared/domain/invoices/summary';
import { createPublicLink, revokePublicLink } from '../../../shared/domain/invoices/public-link';
import {
  applyInvoiceAction,
  createInvoice,
  deleteInvoice,
  getInvoice,
  listInvoices,
  updateInvoice,
} from '../../../shared/domain/invoices/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const invoicesRouter = ({ db, config }: Pick<ApiDeps, 'db' | 'config'>) =>
  router({
    get: procedure('invoices.read')
      .input(listInvoicesQuery.prefault({}))
      .output(pageOf(invoiceSchema))
      .query(({ ctx, input }) => listInvoices(db, ctx.principal.teamId, input)),
    getById: procedure('invoices.read')
      .input(invoiceIdParams)
      .output(invoiceSchema)
      .query(({ ctx, input }) => getInvoice(db, ctx.principal.teamId, input.id)),
    create: procedure('invoices.write')
      .input(createInvoiceBody)
      .output(invoiceSchema)
      .mutation(({ ctx, input }) => createInvoice(db, ctx.principal.teamId, ctx.principal.userId, input)),
    update: procedure('invoices.write')
      .input(invoiceIdParams.extend({ data: updateInvoiceBody }))
      .output(invoiceSchema)
      .mutation(({ ctx, input }) => updateInvoice(db, ctx.principal.teamId, input.id, input.data)),
    transition: procedure('invoices.write')
      .input(invoiceIdParams.extend({ action: z.enum(INVOICE_ACTIONS), data: invoiceActionBody.optional() }))
      .output(invoiceSchema)
      .mutation(({ ctx, input }) => applyInvoiceAction(db, ctx.principal.teamId, input.id, input.action, input.data ?? {})),
    delete: procedure('invoices.write')
      .input(invoiceIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteInvoice(db, ctx.principal.teamId, input.id);
      }),
    summary: procedure('invoices.read')
      .output(invoiceSummarySchema)
      .query(({ ctx }) => invoiceSummary(db, ctx.principal.teamId)),
    createFromTracker: procedure('invoices.write', 'tracker-entries.write')
      .input(invoiceFromTrackerBody)
      .output(invoiceSchema)
      .mutation(({ ctx, input }) => createInvoiceFromTracker(db, ctx.principal.teamId, ctx.principal.userId, input)),
    createPublicLink: procedure('invoices.write')
      .input(invoiceIdParams)
      .output(publicLinkSchema)
      .mutation(({ ctx, input }) => createPublicLink(db, ctx.principal.teamId, input.id, config.PUBLIC_URL ?? '')),
    revokePublicLink: procedure('invoices.write')
      .input(invoiceIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await revokePublicLink(db, ctx.principal.teamId, input.id);
      }),
  });
