import {
  createInvoiceBody,
  INVOICE_ACTIONS,
  invoiceActionBody,
  invoiceIdParams,
  invoiceSchema,
  listInvoicesQuery,
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
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { none, one, page } from './replies';

const ACTION_TEXT: Record<(typeof INVOICE_ACTIONS)[number], string> = {
  finalize: 'Issue a draft: it becomes `unpaid`, dated today and due in 30 days unless dates were set.',
  'mark-paid': 'Record a payment received outside the payment provider: `unpaid` or `overdue` becomes `paid`.',
  cancel: 'Cancel a draft, scheduled, unpaid or overdue invoice.',
};

export const invoiceRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
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
