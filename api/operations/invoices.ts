import { z } from 'zod';
import * as schema from '../../shared/domain/invoices/schema';
import * as lifecycle from '../../shared/domain/invoices/lifecycle';
import { createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from '../../shared/domain/invoices/service';
import { createInvoiceFromTracker } from '../../shared/domain/invoices/from-tracker';
import { invoicePdfFile } from '../../shared/domain/invoices/pdf';
import { invoiceSummary } from '../../shared/domain/invoices/summary';
import { createPublicLink, revokePublicLink } from '../../shared/domain/invoices/public-link';
import * as creditNoteSchema from '../../shared/domain/credit-notes/schema';
import { creditNotesOfInvoice, getCreditNote, listCreditNotes } from '../../shared/domain/credit-notes/service';
import { creditNotePdfFile } from '../../shared/domain/credit-notes/pdf';
import * as eInvoiceSchema from '../../shared/domain/e-invoices/schema';
import { creditNoteEInvoice, invoiceEInvoice } from '../../shared/domain/e-invoices/service';
import { all, file, mutation, none, one, page, query, trpcOnly } from './declare';

type InvoiceAction = (typeof schema.INVOICE_ACTIONS)[number];

const ACTION_TEXT: Record<InvoiceAction, string> = {
  finalize:
    'Issue a draft without emailing it (you send the PDF or link yourself): it becomes `unpaid`, dated today and due in 30 days unless dates were set. Its lifecycle marks it `overdue` after the due date and sends reminders if the customer has them on.',
  send: 'Issue a draft (or a scheduled invoice, now) and email it to the customer with its PDF attached and a public link: it becomes `unpaid`, and its lifecycle chases it as after `finalize`. 409 when the customer has no `billingEmail` or `email`; 503 when the workflow service cannot be reached (nothing changes).',
  'mark-paid': 'Record a payment received outside the payment provider: `unpaid` or `overdue` becomes `paid`.',
  cancel:
    'Cancel a draft, scheduled, unpaid or overdue invoice. An issued one (unpaid or overdue) is corrected by a document: the credit note of everything not yet credited is issued with the cancellation (see `POST /invoices/:id/credit-notes`), and emailed to the customer when the invoice was.',
};

/** `POST /invoices/:id/<action>`: the action, then the invoice as it now is. */
const action = <const N extends string>(name: N, action: InvoiceAction) =>
  mutation(`invoices.${name}`, `POST /invoices/:id/${action}`, ['invoices.write'], {
    summary: `${action[0].toUpperCase()}${action.slice(1).replace('-', ' ')} an invoice`,
    description: `${ACTION_TEXT[action]} Any other current status is 409.`,
    input: schema.invoiceIdParams.extend({ data: schema.invoiceActionBody.prefault({}) }),
    body: 'data',
    output: one(schema.invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await lifecycle.applyInvoiceAction(db, temporal, principal.teamId, input.id, action, input.data, principal.userId);
      return getInvoice(db, principal.teamId, input.id);
    },
  });

export const invoices = [
  query('invoices.get', 'GET /invoices', ['invoices.read'], {
    summary: 'List invoices',
    description:
      'Newest first, or in the order `sort` names (`sort=dueDate` for the next due first; an invoice without the date, a draft, comes after the dated ones); keyset-paginated.',
    input: schema.listInvoicesQuery,
    output: page(schema.invoiceSchema),
    run: ({ principal, input }, { db }) => listInvoices(db, principal.teamId, input),
  }),
  query('invoices.getById', 'GET /invoices/:id', ['invoices.read'], {
    summary: 'Get an invoice',
    description:
      'With `lifecycle`: what its InvoiceLifecycle run does next and when (a scheduled send, the due date, the next reminder), asked of the run itself.',
    input: schema.invoiceIdParams,
    output: one(schema.invoiceSchema),
    run: ({ principal, input }, { db, temporal }) => lifecycle.getInvoiceWithLifecycle(db, temporal, principal.teamId, input.id),
  }),
  query('invoices.summary', 'GET /invoices/summary', ['invoices.read'], {
    summary: 'Where the invoices stand',
    description:
      "Drafts, outstanding, overdue and paid this month: count and amount per currency, and each group's total in the team's base currency at the newest stored rate (currencies without a rate are listed and left out of that total).",
    output: one(schema.invoiceSummarySchema),
    run: ({ principal }, { db }) => invoiceSummary(db, principal.teamId),
  }),
  query('invoices.pdf', 'GET /invoices/:id/pdf', ['invoices.read'], {
    restOnly: 'a PDF file',
    summary: 'The invoice as a PDF',
    description:
      'One A4 page (more for long invoices): the team, the customer’s billing address, the lines with quantity, unit price and VAT, totals with VAT per rate, payment reference and note; money formatted for the team’s country in the currency’s minor unit (¥1,000, BHD 1.235). Rendered on request, so it always shows the invoice as it is now.',
    input: schema.invoiceIdParams,
    output: file('application/pdf, named `<invoice number>.pdf`.'),
    run: async ({ principal, input }, { db, storage }) => {
      const { pdf, fileName } = await invoicePdfFile(db, principal.teamId, input.id, storage);
      return { body: pdf, mimeType: 'application/pdf', fileName, size: pdf.length };
    },
  }),
  query('invoices.eInvoice', 'GET /invoices/:id/e-invoice', ['invoices.read'], {
    restOnly: 'an XML or PDF file',
    summary: 'The invoice as an e-invoice',
    description: `An issued invoice (unpaid, overdue, paid or refunded) as an EN 16931 e-invoice: 409 for a draft, a scheduled or a canceled one. ${eInvoiceSchema.E_INVOICE_DESCRIPTION}`,
    input: eInvoiceSchema.eInvoiceQuery,
    output: file(
      'application/xml, named `<number>.ubl.xml`, `<number>.xrechnung.xml` or `<number>.cii.xml`; for `facturx` application/pdf, `<number>.pdf`.',
    ),
    run: async ({ principal, input }, { db, storage }) => {
      const { body, mimeType, fileName } = await invoiceEInvoice(db, principal.teamId, input.id, input.format, storage);
      return { body, mimeType, fileName, size: body.length };
    },
  }),
  mutation('invoices.create', 'POST /invoices', ['invoices.write'], {
    status: 201,
    summary: 'Create a draft invoice',
    description:
      "Totals are computed from the line items in the currency's minor unit (ISO 4217: cents for EUR, whole yen for JPY, fils for BHD; see GET /currencies): each line's amount, VAT and tax are rounded as printed and then summed, and the discount is rounded too. Unit prices keep up to four decimals. The number defaults to the team's prefix and next number (`INV-0001`; `invoicePrefix`, `invoiceNextNumber` on the team); an explicit number already used is 409.",
    input: schema.createInvoiceBody,
    output: one(schema.invoiceSchema),
    run: ({ principal, input }, { db }) => createInvoice(db, principal.teamId, principal.userId, input),
  }),
  mutation('invoices.update', 'PATCH /invoices/:id', ['invoices.write'], {
    body: 'data',
    summary: 'Edit a draft invoice',
    description:
      'Only drafts can be edited. From finalize (or send) on, an invoice is locked: everything on the document (lines, amounts, customer, dates, number, currency, discount, note) stays as issued, and an edit is 409 naming the fields in `details`; correct it with a credit note. Its payments, reminders and public link go on as before. The totals are computed again, in the minor unit of the (new) currency.',
    input: schema.invoiceIdParams.extend({ data: schema.updateInvoiceBody }),
    output: one(schema.invoiceSchema),
    run: ({ principal, input }, { db }) => updateInvoice(db, principal.teamId, input.id, input.data),
  }),
  mutation('invoices.delete', 'DELETE /invoices/:id', ['invoices.write'], {
    summary: 'Delete a draft or canceled invoice',
    description: 'An issued invoice is part of the books: cancel it instead (409).',
    input: schema.invoiceIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteInvoice(db, principal.teamId, input.id),
  }),
  mutation('invoices.createFromTracker', 'POST /invoices/from-tracker', ['invoices.write', 'tracker-entries.write'], {
    status: 201,
    summary: 'Invoice tracked time',
    description:
      "A draft invoice to the project's customer from its unbilled, finished entries of the period: one line per entry, its hours × its rate (else the project's). The entries are marked billed by this invoice in the same transaction, so asking twice bills nothing twice (409 when nothing is left); deleting the draft makes them billable again.",
    input: schema.invoiceFromTrackerBody,
    output: one(schema.invoiceSchema),
    run: ({ principal, input }, { db }) => createInvoiceFromTracker(db, principal.teamId, principal.userId, input),
  }),
  mutation('invoices.createPublicLink', 'POST /invoices/:id/public-link', ['invoices.write'], {
    status: 201,
    summary: 'Make a public link to the invoice',
    description:
      'A link (`/i/<token>`) that shows the invoice and its PDF to anyone who has it, without signing in; its first view each day is recorded as `viewedAt`. The URL is shown once (only its hash is kept): making a new link revokes the previous one. 409 for a draft.',
    input: schema.invoiceIdParams,
    output: one(schema.publicLinkSchema),
    run: ({ principal, input }, { db, config }) => createPublicLink(db, principal.teamId, input.id, config.PUBLIC_URL ?? ''),
  }),
  mutation('invoices.revokePublicLink', 'DELETE /invoices/:id/public-link', ['invoices.write'], {
    summary: 'Revoke the public link',
    description: 'The link stops working at once (404). 404 when the invoice has no live link.',
    input: schema.invoiceIdParams,
    output: none,
    run: ({ principal, input }, { db }) => revokePublicLink(db, principal.teamId, input.id),
  }),
  action('finalize', 'finalize'),
  action('send', 'send'),
  action('markPaid', 'mark-paid'),
  action('cancel', 'cancel'),
  mutation('invoices.transition', trpcOnly('the four actions in one, as tRPC had them'), ['invoices.write'], {
    deprecated: 'use invoices.finalize, invoices.send, invoices.markPaid or invoices.cancel',
    summary: 'Finalize, send, mark paid or cancel an invoice',
    input: schema.invoiceIdParams.extend({ action: z.enum(schema.INVOICE_ACTIONS), data: schema.invoiceActionBody.optional() }),
    output: one(schema.invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await lifecycle.applyInvoiceAction(db, temporal, principal.teamId, input.id, input.action, input.data ?? {}, principal.userId);
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.schedule', 'POST /invoices/:id/schedule', ['invoices.write'], {
    body: 'data',
    summary: 'Schedule an invoice',
    description:
      'A draft becomes `scheduled` and is issued and emailed at `sendAt` by its lifecycle (one durable timer). On a scheduled invoice this moves the time: the run wakes and waits for the new one, never two timers. 409 when the customer has no email address or the invoice is neither draft nor scheduled.',
    input: schema.invoiceIdParams.extend({ data: schema.scheduleInvoiceBody }),
    output: one(schema.invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await lifecycle.scheduleInvoice(db, temporal, principal.teamId, input.id, new Date(input.data.sendAt));
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.unschedule', 'DELETE /invoices/:id/schedule', ['invoices.write'], {
    summary: 'Cancel a scheduled send',
    description: 'The invoice goes back to draft and nothing is sent; its run ends. 409 unless it is scheduled.',
    input: schema.invoiceIdParams,
    output: one(schema.invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      await lifecycle.unscheduleInvoice(db, temporal, principal.teamId, input.id);
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.recordPayment', 'POST /invoices/:id/payments', ['invoices.write'], {
    status: 201,
    body: 'data',
    summary: 'Record a payment',
    description:
      'A payment received outside the payment provider, in full or in part: `amountDue` goes down, and when the payments reach the total the invoice is `paid` and its lifecycle ends. Reminders after a part payment state what is still due. The amount is taken in the invoice currency’s minor unit (¥1,000.4 is ¥1,000). 400 for more than is due, or for an amount that rounds to 0; 409 unless the invoice is unpaid or overdue.',
    input: schema.invoiceIdParams.extend({ data: schema.invoicePaymentBody }),
    output: one(schema.invoiceSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      const { amount, paidAt, reference } = input.data;
      await lifecycle.recordInvoicePayment(
        db,
        temporal,
        { teamId: principal.teamId, invoiceId: input.id, userId: principal.userId },
        { amount, paidAt: paidAt ? new Date(paidAt) : undefined, reference },
      );
      return getInvoice(db, principal.teamId, input.id);
    },
  }),
  mutation('invoices.createCreditNote', 'POST /invoices/:id/credit-notes', ['invoices.write'], {
    status: 201,
    body: 'data',
    summary: 'Issue a credit note',
    description:
      "Corrects an issued invoice (unpaid, overdue, paid or refunded), which itself stays as issued. Without `lineItems` it credits everything not yet credited, the invoice's discount included; with them, the chosen lines: a line's whole remainder, a `quantity` at its unit price, or a net `amount`, each with the line's VAT and tax. Never more than is left: per line and in all, 400 naming the line; 409 when nothing is left or the invoice was never issued. The credit note is numbered from its own gap-free series per team and year (`CN-2026-0001`), carries the e-invoice type code 381, and has its own PDF; `send` emails it to the customer. On an open invoice it lowers `amountDue`; when nothing is left to pay the invoice closes (paid when payments and credit cover it, canceled when credit alone does). 503 when it is to be emailed and the workflow service cannot be reached (nothing is issued).",
    input: schema.invoiceIdParams.extend({ data: creditNoteSchema.createCreditNoteBody.prefault({}) }),
    output: one(creditNoteSchema.creditNoteSchema),
    run: async ({ principal, input }, { db, temporal }) => {
      const id = await lifecycle.createCreditNote(
        db,
        temporal,
        { teamId: principal.teamId, invoiceId: input.id, userId: principal.userId },
        input.data,
      );
      return getCreditNote(db, principal.teamId, id);
    },
  }),
  query('invoices.getCreditNotesOfInvoice', 'GET /invoices/:id/credit-notes', ['invoices.read'], {
    summary: "An invoice's credit notes",
    description: 'Oldest first (a handful at most: together they never credit more than the invoice). 404 for an invoice not in the team.',
    input: schema.invoiceIdParams,
    output: all(creditNoteSchema.creditNoteSchema),
    run: ({ principal, input }, { db }) => creditNotesOfInvoice(db, principal.teamId, input.id),
  }),
  query('invoices.getCreditNotes', 'GET /invoices/credit-notes', ['invoices.read'], {
    summary: 'List credit notes',
    description: "The team's credit notes, newest first, keyset-paginated; `invoiceId` keeps one invoice's.",
    input: creditNoteSchema.listCreditNotesQuery,
    output: page(creditNoteSchema.creditNoteSchema),
    run: ({ principal, input }, { db }) => listCreditNotes(db, principal.teamId, input),
  }),
  query('invoices.getCreditNoteById', 'GET /invoices/credit-notes/:id', ['invoices.read'], {
    summary: 'Get a credit note',
    input: creditNoteSchema.creditNoteIdParams,
    output: one(creditNoteSchema.creditNoteSchema),
    run: ({ principal, input }, { db }) => getCreditNote(db, principal.teamId, input.id),
  }),
  query('invoices.creditNotePdf', 'GET /invoices/credit-notes/:id/pdf', ['invoices.read'], {
    restOnly: 'a PDF file',
    summary: 'The credit note as a PDF',
    description:
      'The invoice template titled "Credit note": its number and date, the invoice it corrects and that invoice\'s date, the lines and totals credited as negative amounts, and the reason.',
    input: creditNoteSchema.creditNoteIdParams,
    output: file('application/pdf, named `<credit note number>.pdf`.'),
    run: async ({ principal, input }, { db, storage }) => {
      const { pdf, fileName } = await creditNotePdfFile(db, principal.teamId, input.id, storage);
      return { body: pdf, mimeType: 'application/pdf', fileName, size: pdf.length };
    },
  }),
  query('invoices.creditNoteEInvoice', 'GET /invoices/credit-notes/:id/e-invoice', ['invoices.read'], {
    restOnly: 'an XML or PDF file',
    summary: 'The credit note as an e-invoice',
    description: `The credit note as an EN 16931 document of type 381 (UBL CreditNote; CII TypeCode 381), referring to the invoice it corrects (BG-3), its amounts positive as the type says it credits. ${eInvoiceSchema.E_INVOICE_DESCRIPTION}`,
    input: eInvoiceSchema.eInvoiceQuery,
    output: file('As for an invoice, named by the credit note number.'),
    run: async ({ principal, input }, { db, storage }) => {
      const { body, mimeType, fileName } = await creditNoteEInvoice(db, principal.teamId, input.id, input.format, storage);
      return { body, mimeType, fileName, size: body.length };
    },
  }),
];
