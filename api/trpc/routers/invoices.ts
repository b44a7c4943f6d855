import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import {
  createInvoiceBody,
  INVOICE_ACTIONS,
  invoiceActionBody,
  invoiceFromTrackerBody,
  invoiceIdParams,
  invoicePaymentBody,
  invoiceSchema,
  scheduleInvoiceBody,
  invoiceSummarySchema,
  listInvoicesQuery,
  publicLinkSchema,
  updateInvoiceBody,
} from '../../../shared/domain/invoices/schema';
import { createInvoiceFromTracker } from '../../../shared/domain/invoices/from-tracker';
import {
  confirmPaymentSuggestion,
  declinePaymentSuggestion,
  listPaymentSuggestions,
  listPaymentSuggestionsQuery,
  paymentSuggestionIdParams,
  paymentSuggestionSchema,
} from '../../../shared/domain/invoices/payment-matching';
import { invoiceSummary } from '../../../shared/domain/invoices/summary';
import { createPublicLink, revokePublicLink } from '../../../shared/domain/invoices/public-link';
import {
  applyInvoiceAction,
  getInvoiceWithLifecycle,
  recordInvoicePayment,
  scheduleInvoice,
  unscheduleInvoice,
} from '../../../shared/domain/invoices/lifecycle';
import { createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from '../../../shared/domain/invoices/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const invoicesRouter = ({ db, config, temporal }: Pick<ApiDeps, 'db' | 'config' | 'temporal'>) =>
  router({
    get: procedure('invoices.read')
      .input(listInvoicesQuery.prefault({}))
      .output(pageOf(invoiceSchema))
      .query(({ ctx, input }) => listInvoices(db, ctx.principal.teamId, input)),
    getById: procedure('invoices.read')
      .input(invoiceIdParams)
      .output(invoiceSchema)
      .query(({ ctx, input }) => getInvoiceWithLifecycle(db, temporal, ctx.principal.teamId, input.id)),
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
      .mutation(async ({ ctx, input }) => {
        await applyInvoiceAction(db, temporal, ctx.principal.teamId, input.id, input.action, input.data ?? {});
        return getInvoice(db, ctx.principal.teamId, input.id);
      }),
    schedule: procedure('invoices.write')
      .input(invoiceIdParams.extend({ data: scheduleInvoiceBody }))
      .output(invoiceSchema)
      .mutation(async ({ ctx, input }) => {
        await scheduleInvoice(db, temporal, ctx.principal.teamId, input.id, new Date(input.data.sendAt));
        return getInvoice(db, ctx.principal.teamId, input.id);
      }),
    unschedule: procedure('invoices.write')
      .input(invoiceIdParams)
      .output(invoiceSchema)
      .mutation(async ({ ctx, input }) => {
        await unscheduleInvoice(db, temporal, ctx.principal.teamId, input.id);
        return getInvoice(db, ctx.principal.teamId, input.id);
      }),
    recordPayment: procedure('invoices.write')
      .input(invoiceIdParams.extend({ data: invoicePaymentBody }))
      .output(invoiceSchema)
      .mutation(async ({ ctx, input }) => {
        const { teamId, userId } = ctx.principal;
        const { amount, paidAt, reference } = input.data;
        await recordInvoicePayment(
          db,
          temporal,
          { teamId, invoiceId: input.id, userId },
          { amount, paidAt: paidAt ? new Date(paidAt) : undefined, reference },
        );
        return getInvoice(db, teamId, input.id);
      }),
    delete: procedure('invoices.write')
      .input(invoiceIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteInvoice(db, ctx.principal.teamId, input.id);
      }),
    paymentSuggestions: procedure('invoices.read')
      .input(listPaymentSuggestionsQuery.prefault({}))
      .output(pageOf(paymentSuggestionSchema))
      .query(({ ctx, input }) => listPaymentSuggestions(db, ctx.principal.teamId, input)),
    confirmPaymentSuggestion: procedure('invoices.write')
      .input(paymentSuggestionIdParams)
      .output(paymentSuggestionSchema)
      .mutation(({ ctx, input }) =>
        confirmPaymentSuggestion(db, temporal, { teamId: ctx.principal.teamId, userId: ctx.principal.userId }, input.id),
      ),
    declinePaymentSuggestion: procedure('invoices.write')
      .input(paymentSuggestionIdParams)
      .output(paymentSuggestionSchema)
      .mutation(({ ctx, input }) => declinePaymentSuggestion(db, { teamId: ctx.principal.teamId, userId: ctx.principal.userId }, input.id)),
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
