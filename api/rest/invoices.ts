import {
  createInvoiceBody,
  INVOICE_ACTIONS,
  invoiceActionBody,
  invoiceIdParams,
  invoiceFromTrackerBody,
  invoicePaymentBody,
  scheduleInvoiceBody,
  invoiceSchema,
  invoiceSummarySchema,
  listInvoicesQuery,
  publicLinkSchema,
  updateInvoiceBody,
} from '../../shared/domain/invoices/schema';
import {
  applyInvoiceAction,
  getInvoiceWithLifecycle,
  recordInvoicePayment,
  scheduleInvoice,
  unscheduleInvoice,
} from '../../shared/domain/invoices/lifecycle';
import { createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from '../../shared/domain/invoices/service';
import { createInvoiceFromTracker } from '../../shared/domain/invoices/from-tracker';
import { invoicePdfFile } from '../../shared/domain/invoices/pdf';
import { invoiceSummary } from '../../shared/domain/invoices/summary';
import { createPublicLink, revokePublicLink } from '../../shared/domain/invoices/public-link';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { file, none, one, page } from './replies';

const ACTION_TEXT: Record<(typeof INVOICE_ACTIONS)[number], string> = {
  finalize:
    'Issue a draft without emailing it (you send the PDF or link yourself): it becomes `unpaid`, dated today and due in 30 days unless dates were set. Its lifecycle marks it `overdue` after the due date and sends reminders if the customer has them on.',
  send: 'Issue a draft (or a scheduled invoice, now) and email it to the customer with its PDF attached and a public link: it becomes `unpaid`, and its lifecycle chases it as after `finalize`. 409 when the customer has no `billingEmail` or `email`; 503 when the workflow service cannot be reached (nothing changes).',
  'mark-paid': 'Record a payment received outside the payment provider: `unpaid` or `overdue` becomes `paid`.',
  cancel: 'Cancel a draft, scheduled, unpaid or overdue invoice.',
};

export const invoiceRoutes = ({ db, config, temporal, storage }: Pick<ApiDeps, 'db' | 'config' | 'temporal' | 'storage'>) => [
  defineRoute({
    method: 'get',
    path: '/invoices',
    scopes: ['invoices.read'],
    tag: 'Invoices',
    summary: 'List invoices',
    description: 'Newest first, keyset-paginated.',
    query: listInvoicesQuery,
    reply: page(invoiceSchema),
    handler: ({ principal, query }) => listInvoices(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/invoices/summary',
    scopes: ['invoices.read'],
    tag: 'Invoices',
    summary: 'Where the invoices stand',
    description:
      "Drafts, outstanding, overdue and paid this month: count and amount per currency, and each group's total in the team's base currency at the newest stored rate (currencies without a rate are listed and left out of that total).",
    reply: one(invoiceSummarySchema),
    handler: ({ principal }) => invoiceSummary(db, principal.teamId),
  }),
  defineRoute({
    method: 'get',
    path: '/invoices/:id',
    scopes: ['invoices.read'],
    tag: 'Invoices',
    summary: 'Get an invoice',
    description:
      'With `lifecycle`: what its InvoiceLifecycle run does next and when (a scheduled send, the due date, the next reminder), asked of the run itself.',
    params: invoiceIdParams,
    reply: one(invoiceSchema),
    handler: ({ principal, params }) => getInvoiceWithLifecycle(db, temporal, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/invoices/from-tracker',
    scopes: ['invoices.write', 'tracker-entries.write'],
    tag: 'Invoices',
    summary: 'Invoice tracked time',
    description:
      "A draft invoice to the project's customer from its unbilled, finished entries of the period: one line per entry, its hours × its rate (else the project's). The entries are marked billed by this invoice in the same transaction, so asking twice bills nothing twice (409 when nothing is left); deleting the draft makes them billable again.",
    body: invoiceFromTrackerBody,
    reply: one(invoiceSchema),
    status: 201,
    handler: ({ principal, body }) => createInvoiceFromTracker(db, principal.teamId, principal.userId, body),
  }),
  defineRoute({
    method: 'post',
    path: '/invoices/:id/public-link',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Make a public link to the invoice',
    description:
      'A link (`/i/<token>`) that shows the invoice and its PDF to anyone who has it, without signing in; its first view each day is recorded as `viewedAt`. The URL is shown once (only its hash is kept): making a new link revokes the previous one. 409 for a draft.',
    params: invoiceIdParams,
    reply: one(publicLinkSchema),
    status: 201,
    handler: ({ principal, params }) => createPublicLink(db, principal.teamId, params.id, config.PUBLIC_URL ?? ''),
  }),
  defineRoute({
    method: 'delete',
    path: '/invoices/:id/public-link',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Revoke the public link',
    description: 'The link stops working at once (404). 404 when the invoice has no live link.',
    params: invoiceIdParams,
    reply: none,
    handler: ({ principal, params }) => revokePublicLink(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/invoices/:id/pdf',
    scopes: ['invoices.read'],
    tag: 'Invoices',
    summary: 'The invoice as a PDF',
    description:
      'One A4 page (more for long invoices): the team, the customer’s billing address, the lines with quantity, unit price and VAT, totals with VAT per rate, payment reference and note; money formatted for the team’s country. Rendered on request, so it always shows the invoice as it is now.',
    params: invoiceIdParams,
    reply: file('application/pdf, named `<invoice number>.pdf`.'),
    handler: async ({ principal, params }) => {
      const { pdf, fileName } = await invoicePdfFile(db, principal.teamId, params.id, storage);
      return { body: pdf, mimeType: 'application/pdf', fileName, size: pdf.length };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/invoices',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Create a draft invoice',
    description:
      "Totals are computed from the line items (VAT and tax per line, rounded to the cent). The number defaults to the team's prefix and next number (`INV-0001`; `invoicePrefix`, `invoiceNextNumber` on the team); an explicit number already used is 409.",
    body: createInvoiceBody,
    reply: one(invoiceSchema),
    status: 201,
    handler: ({ principal, body }) => createInvoice(db, principal.teamId, principal.userId, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/invoices/:id',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Edit a draft invoice',
    description: 'Only drafts can be edited (409 otherwise).',
    params: invoiceIdParams,
    body: updateInvoiceBody,
    reply: one(invoiceSchema),
    handler: ({ principal, params, body }) => updateInvoice(db, principal.teamId, params.id, body),
  }),
  ...INVOICE_ACTIONS.map((action) =>
    defineRoute({
      method: 'post',
      path: `/invoices/:id/${action}`,
      scopes: ['invoices.write'],
      tag: 'Invoices',
      summary: `${action[0].toUpperCase()}${action.slice(1).replace('-', ' ')} an invoice`,
      description: `${ACTION_TEXT[action]} Any other current status is 409.`,
      params: invoiceIdParams,
      body: invoiceActionBody,
      reply: one(invoiceSchema),
      handler: async ({ principal, params, body }) => {
        await applyInvoiceAction(db, temporal, principal.teamId, params.id, action, body);
        return getInvoice(db, principal.teamId, params.id);
      },
    }),
  ),
  defineRoute({
    method: 'post',
    path: '/invoices/:id/schedule',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Schedule an invoice',
    description:
      'A draft becomes `scheduled` and is issued and emailed at `sendAt` by its lifecycle (one durable timer). On a scheduled invoice this moves the time: the run wakes and waits for the new one, never two timers. 409 when the customer has no email address or the invoice is neither draft nor scheduled.',
    params: invoiceIdParams,
    body: scheduleInvoiceBody,
    reply: one(invoiceSchema),
    handler: async ({ principal, params, body }) => {
      await scheduleInvoice(db, temporal, principal.teamId, params.id, new Date(body.sendAt));
      return getInvoice(db, principal.teamId, params.id);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/invoices/:id/schedule',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Cancel a scheduled send',
    description: 'The invoice goes back to draft and nothing is sent; its run ends. 409 unless it is scheduled.',
    params: invoiceIdParams,
    reply: one(invoiceSchema),
    handler: async ({ principal, params }) => {
      await unscheduleInvoice(db, temporal, principal.teamId, params.id);
      return getInvoice(db, principal.teamId, params.id);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/invoices/:id/payments',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Record a payment',
    description:
      'A payment received outside the payment provider, in full or in part: `amountDue` goes down, and when the payments reach the total the invoice is `paid` and its lifecycle ends. Reminders after a part payment state what is still due. 400 for more than is due; 409 unless the invoice is unpaid or overdue.',
    params: invoiceIdParams,
    body: invoicePaymentBody,
    reply: one(invoiceSchema),
    status: 201,
    handler: async ({ principal, params, body }) => {
      await recordInvoicePayment(
        db,
        temporal,
        { teamId: principal.teamId, invoiceId: params.id, userId: principal.userId },
        { amount: body.amount, paidAt: body.paidAt ? new Date(body.paidAt) : undefined, reference: body.reference },
      );
      return getInvoice(db, principal.teamId, params.id);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/invoices/:id',
    scopes: ['invoices.write'],
    tag: 'Invoices',
    summary: 'Delete a draft or canceled invoice',
    description: 'An issued invoice is part of the books: cancel it instead (409).',
    params: invoiceIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteInvoice(db, principal.teamId, params.id),
  }),
];
