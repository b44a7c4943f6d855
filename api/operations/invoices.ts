import { z } from 'zod';
import {
  createInvoiceBody,
  INVOICE_ACTIONS,
  invoiceActionBody,
  invoiceFromTrackerBody,
  invoiceIdParams,
  invoicePaymentBody,
  invoiceSchema,
  invoiceSummarySchema,
  listInvoicesQuery,
  publicLinkSchema,
  scheduleInvoiceBody,
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
import { mutation, query } from './declare';
import { file, none, one, page } from './output';

type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

const ACTION_TEXT: Record<InvoiceAction, string> = {
  finalize:
    'Issue a draft without emailing it (you send the PDF or link yourself): it becomes `unpaid`, dated today and due in 30 days unless dates were set. Its lifecycle marks it `overdue` after the due date and sends reminders if the customer has them on.',
  send: 'Issue a draft (or a scheduled invoice, now) and email it to the customer with its PDF attached and a public link: it becomes `unpaid`, and its lifecycle chases it as after `finalize`. 409 when the customer has no `billingEmail` or `email`; 503 when the workflow service cannot be reached (nothing changes).',
  'mark-paid': 'Record a payment received outside the payment provider: `unpaid` or `overdue` becomes `paid`.',
  cancel: 'Cancel a draft, scheduled, unpaid or overdue invoice.',
};

/** `POST /invoices/:id/<action>`: the action, then the invoice as it now is. */
const action = <const N extends string>(name: N, action: InvoiceAction) =>
  mutation(`invoices.${name}`, {
    rest: `POST /invoices/:id/${action}`,
    scopes: ['invoices.write'],
    summary: `${action[0].toUpperCase()}${action.slice(1).replace('-', ' ')} an invoice`,
    description: `${ACTION_TEXT[action]} Any other current status is 409.`,
    input: invoiceIdParams.extend({ data: invoiceActionBody.prefault({}) }),
    body: 'data',
    output: one(invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await applyInvoiceAction(db, temporal, principal.teamId, input.id, action, input.data);
      return getInvoice(db, principal.teamId, input.id);
    },
  });

export const invoices = [
  query('invoices.get', {
    rest: 'GET /invoices',
    scopes: ['invoices.read'],
    summary: 'List invoices',
    description: 'Newest first, keyset-paginated.',
    input: listInvoicesQuery,
    output: page(invoiceSchema),
    run: ({ principal, input }, { db }) => listInvoices(db, principal.teamId, input),
  }),
  query('invoices.getById', {
    rest: 'GET /invoices/:id',
    scopes: ['invoices.read'],
    summary: 'Get an invoice',
    description:
      'With `lifecycle`: what its InvoiceLifecycle run does next and when (a scheduled send, the due date, the next reminder), asked of the run itself.',
    input: invoiceIdParams,
    output: one(invoiceSchema),
    run: ({ principal, input }, { db, temporal }) => getInvoiceWithLifecycle(db, temporal, principal.teamId, input.id),
  }),
  query('invoices.summary', {
    rest: 'GET /invoices/summary',
    scopes: ['invoices.read'],
    summary: 'Where the invoices stand',
    description:
      "Drafts, outstanding, overdue and paid this month: count and amount per currency, and each group's total in the team's base currency at the newest stored rate (currencies without a rate are listed and left out of that total).",
    output: one(invoiceSummarySchema),
    run: ({ principal }, { db }) => invoiceSummary(db, principal.teamId),
  }),
  query('invoices.pdf', {
    rest: 'GET /invoices/:id/pdf',
    restOnly: 'a PDF file',
    scopes: ['invoices.read'],
    summary: 'The invoice as a PDF',
    description:
      'One A4 page (more for long invoices): the team, the customer’s billing address, the lines with quantity, unit price and VAT, totals with VAT per rate, payment reference and note; money formatted for the team’s country. Rendered on request, so it always shows the invoice as it is now.',
    input: invoiceIdParams,
    output: file('application/pdf, named `<invoice number>.pdf`.'),
    run: async ({ principal, input }, { db, storage }) => {
      const { pdf, fileName } = await invoicePdfFile(db, principal.teamId, input.id, storage);
      return { body: pdf, mimeType: 'application/pdf', fileName, size: pdf.length };
    },
  }),
  mutation('invoices.create', {
    rest: 'POST /invoices',
    status: 201,
    scopes: ['invoices.write'],
    summary: 'Create a draft invoice',
    description:
      "Totals are computed from the line items (VAT and tax per line, rounded to the cent). The number defaults to the team's prefix and next number (`INV-0001`; `invoicePrefix`, `invoiceNextNumber` on the team); an explicit number already used is 409.",
    input: createInvoiceBody,
    output: one(invoiceSchema),
    run: ({ principal, input }, { db }) => createInvoice(db, principal.teamId, principal.userId, input),
  }),
  mutation('invoices.update', {
    rest: 'PATCH /invoices/:id',
    body: 'data',
    scopes: ['invoices.write'],
    summary: 'Edit a draft invoice',
    description: 'Only drafts can be edited (409 otherwise).',
    input: invoiceIdParams.extend({ data: updateInvoiceBody }),
    output: one(invoiceSchema),
    run: ({ principal, input }, { db }) => updateInvoice(db, principal.teamId, input.id, input.data),
  }),
  mutation('invoices.delete', {
    rest: 'DELETE /invoices/:id',
    scopes: ['invoices.write'],
    summary: 'Delete a draft or canceled invoice',
    description: 'An issued invoice is part of the books: cancel it instead (409).',
    input: invoiceIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteInvoice(db, principal.teamId, input.id),
  }),
  mutation('invoices.createFromTracker', {
    rest: 'POST /invoices/from-tracker',
    status: 201,
    scopes: ['invoices.write', 'tracker-entries.write'],
    summary: 'Invoice tracked time',
    description:
      "A draft invoice to the project's customer from its unbilled, finished entries of the period: one line per entry, its hours × its rate (else the project's). The entries are marked billed by this invoice in the same transaction, so asking twice bills nothing twice (409 when nothing is left); deleting the draft makes them billable again.",
    input: invoiceFromTrackerBody,
    output: one(invoiceSchema),
    run: ({ principal, input }, { db }) => createInvoiceFromTracker(db, principal.teamId, principal.userId, input),
  }),
  mutation('invoices.createPublicLink', {
    rest: 'POST /invoices/:id/public-link',
    status: 201,
    scopes: ['invoices.write'],
    summary: 'Make a public link to the invoice',
    description:
      'A link (`/i/<token>`) that shows the invoice and its PDF to anyone who has it, without signing in; its first view each day is recorded as `viewedAt`. The URL is shown once (only its hash is kept): making a new link revokes the previous one. 409 for a draft.',
    input: invoiceIdParams,
    output: one(publicLinkSchema),
    run: ({ principal, input }, { db, config }) => createPublicLink(db, principal.teamId, input.id, config.PUBLIC_URL ?? ''),
  }),
  mutation('invoices.revokePublicLink', {
    rest: 'DELETE /invoices/:id/public-link',
    scopes: ['invoices.write'],
    summary: 'Revoke the public link',
    description: 'The link stops working at once (404). 404 when the invoice has no live link.',
    input: invoiceIdParams,
    output: none,
    run: ({ principal, input }, { db }) => revokePublicLink(db, principal.teamId, input.id),
  }),
  action('finalize', 'finalize'),
  action('send', 'send'),
  action('markPaid', 'mark-paid'),
  action('cancel', 'cancel'),
  mutation('invoices.transition', {
    trpcOnly: 'the old form of the four actions; REST has `POST /invoices/{id}/<action>`',
    deprecated: 'use invoices.finalize, invoices.send, invoices.markPaid or invoices.cancel',
    scopes: ['invoices.write'],
    summary: 'Finalize, send, mark paid or cancel an invoice',
    input: invoiceIdParams.extend({ action: z.enum(INVOICE_ACTIONS), data: invoiceActionBody.optional() }),
    output: one(invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await applyInvoiceAction(db, temporal, principal.teamId, input.id, input.action, input.data ?? {});
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.schedule', {
    rest: 'POST /invoices/:id/schedule',
    body: 'data',
    scopes: ['invoices.write'],
    summary: 'Schedule an invoice',
    description:
      'A draft becomes `scheduled` and is issued and emailed at `sendAt` by its lifecycle (one durable timer). On a scheduled invoice this moves the time: the run wakes and waits for the new one, never two timers. 409 when the customer has no email address or the invoice is neither draft nor scheduled.',
    input: invoiceIdParams.extend({ data: scheduleInvoiceBody }),
    output: one(invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await scheduleInvoice(db, temporal, principal.teamId, input.id, new Date(input.data.sendAt));
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.unschedule', {
    rest: 'DELETE /invoices/:id/schedule',
    scopes: ['invoices.write'],
    summary: 'Cancel a scheduled send',
    description: 'The invoice goes back to draft and nothing is sent; its run ends. 409 unless it is scheduled.',
    input: invoiceIdParams,
    output: one(invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await unscheduleInvoice(db, temporal, principal.teamId, input.id);
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.recordPayment', {
    rest: 'POST /invoices/:id/payments',
    status: 201,
    body: 'data',
    scopes: ['invoices.write'],
    summary: 'Record a payment',
    description:
      'A payment received outside the payment provider, in full or in part: `amountDue` goes down, and when the payments reach the total the invoice is `paid` and its lifecycle ends. Reminders after a part payment state what is still due. 400 for more than is due; 409 unless the invoice is unpaid or overdue.',
    input: invoiceIdParams.extend({ data: invoicePaymentBody }),
    output: one(invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      const { amount, paidAt, reference } = input.data;
      await recordInvoicePayment(
        db,
        temporal,
        { teamId: principal.teamId, invoiceId: input.id, userId: principal.userId },
        { amount, paidAt: paidAt ? new Date(paidAt) : undefined, reference },
      );
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
];
