import type { Db } from '../../db/knex';
import type { Storage } from '../../providers/storage';
import { formatMoney } from '../currencies/money';
import { invoiceForPdf, localeOf, renderInvoicePdf, type ArchivalPdf, type DocumentHeading, type InvoiceParties } from '../invoices/pdf';
import { numberShown } from '../invoices/numbering';
import type { InvoiceDto } from '../invoices/schema';
import type { CreditNoteDto } from './schema';
import { getCreditNote } from './service';

export type CreditNoteForPdf = { creditNote: CreditNoteDto; invoice: InvoiceDto } & InvoiceParties;

/** The credit note, the invoice it corrects, and the parties (as the invoice's PDF has them); 404 for another team's note. */
export async function creditNoteForPdf(db: Db, teamId: string, id: string, storage?: Pick<Storage, 'get'>): Promise<CreditNoteForPdf> {
  const creditNote = await getCreditNote(db, teamId, id);
  return { creditNote, ...(await invoiceForPdf(db, teamId, creditNote.invoice.id, storage)) };
}

/**
 * The credit note on the invoice's template: titled "Credit note", with its own number and date and
 * the invoice it corrects, and every amount credited shown negative, as a correcting document shows it.
 */
export function renderCreditNotePdf(
  { creditNote: cn, invoice, team, customer }: CreditNoteForPdf,
  archival?: ArchivalPdf,
): Promise<Buffer> {
  const invoiceNumber = numberShown(invoice);
  const credited = formatMoney(cn.amount, cn.currency, localeOf(team.countryCode)).replace(/[\u202f\u00a0]/g, ' ');
  const document: InvoiceDto = {
    ...invoice,
    invoiceNumber: cn.creditNoteNumber,
    currency: cn.currency,
    lineItems: cn.lineItems.map((l) => ({ ...l, price: -l.price })),
    subtotal: -cn.subtotal,
    vat: -cn.vat,
    tax: -cn.tax,
    discount: -cn.discount,
    amount: -cn.amount,
    amountPaid: 0,
    amountCredited: 0,
    amountDue: 0,
    issueDate: cn.issueDate,
    dueDate: null,
    note: cn.reason,
  };
  const heading: DocumentHeading = {
    title: 'Credit note',
    facts: (date) => [
      ['Number', cn.creditNoteNumber],
      ['Issued', date(cn.issueDate)],
      ['Corrects invoice', invoiceNumber],
      ['Invoice date', date(invoice.issueDate)],
    ],
    totalLabel: 'Total credited',
    payment: [
      `This credit note corrects invoice ${invoiceNumber}: ${credited} is credited to you.`,
      'It is set against what is due on the invoice; what was already paid is refunded.',
    ],
  };
  return renderInvoicePdf({ invoice: document, team, customer }, heading, archival);
}

/** The credit note's PDF as a download, named by its number. */
export async function creditNotePdfFile(db: Db, teamId: string, id: string, storage?: Pick<Storage, 'get'>) {
  const data = await creditNoteForPdf(db, teamId, id, storage);
  return { pdf: await renderCreditNotePdf(data), fileName: `${data.creditNote.creditNoteNumber}.pdf` };
}
