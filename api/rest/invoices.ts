import {
  createInvoiceBody,
  INVOICE_ACTIONS,
  invoiceActionBody,
  invoiceIdParams,
  invoiceFromTrackerBody,
  invoiceSchema,
  invoiceSummarySchema,
  listInvoicesQuery,
  publicLinkSchema,
  updateInvoiceBody,
} from '../../shared/domain/invoices/schema';
import {
  applyInvoiceAction,
  createInvoice,
  deleteInvoice,
  getInvoice,
  listInvoices,
  updateInvoice,
} from '../../shared/domain/invoices/service';
import { createInvoiceFromTracker } from '../../shared/domain/invoices/from-tracker';
import { invoicePdfFile } from '../../shared/domain/invoices/pdf';
import { invoiceSummary } from '../../shared/domain/invoices/summary';
import { createPublicLink, revokePublicLink } from '../../shared/domain/invoices/public-link';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { file, none, one, page } from './replies';

const ACTION_TEXT: Record<(typeof INVOICE_ACTIONS)[number], string> = {
  finalize: 'Issue a draft: it becomes `unpaid`, dated today and due in 30 days unless dates were set.',
  'mark-paid': 'Record a payment received outside the payment provider: `unpaid` or `overdue` becomes `paid`.',
  cancel: 'Cancel a draft, scheduled, unpaid or overdue invoice.',
};

export const invoiceRoutes = ({ db, config }: Pick<ApiDeps, 'db' | 'config'>) => [
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
    params: invoiceIdParams,
    reply: one(invoiceSchema),
    handler: ({ principal, params }) => getInvoice(db, principal.teamId, params.id),
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
      const { pdf, fileName } = await invoicePdfFile(db, principal.teamId, params.id);
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
      "Totals are computed from the line items (VAT and tax per line, rounded to the cent). The number defaults to the team's next `INV-nnnn`; an explicit number already used is 409.",
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
      handler: ({ principal, params, body }) => applyInvoiceAction(db, principal.teamId, params.id, action, body),
    }),
  ),
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
