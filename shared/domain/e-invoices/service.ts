import type { Db } from '../../db/knex';
import { CreditNoteLineItem, Team } from '../../db/models';
import { AppError, conflict } from '../../errors';
import type { Storage } from '../../providers/storage';
import { creditNoteForPdf, renderCreditNotePdf, type CreditNoteForPdf } from '../credit-notes/pdf';
import { isIssued } from '../credit-notes/issue';
import { invoiceForPdf, renderInvoicePdf } from '../invoices/pdf';
import { lineAmounts } from '../invoices/totals';
import { ciiXml } from './cii';
import { buildEDocument, type EInvoiceFormat, type Source } from './document';
import { facturX } from './facturx';
import { ublXml } from './ubl';

export interface EInvoiceFile {
  body: Buffer;
  mimeType: string;
  fileName: string;
}

const SUFFIX: Record<EInvoiceFormat, string> = {
  ubl: '.ubl.xml',
  xrechnung: '.xrechnung.xml',
  cii: '.cii.xml',
  facturx: '.pdf',
};

/** The e-invoice's parties: the team with its seller data, and the invoice's customer as the PDF has it. */
async function sellerOf(db: Db, teamId: string): Promise<Source['team']> {
  // The whole row: a select list would pass address_line_1 through knex's own name mapping, which writes it address_line1.
  return Team.query(db).findById(teamId).throwIfNotFound();
}

function render(source: Source, format: EInvoiceFormat) {
  const doc = buildEDocument(source, format);
  if (format === 'ubl' || format === 'xrechnung') return { doc, xml: ublXml(doc, format) };
  return { doc, xml: ciiXml(doc) };
}

/**
 * An issued invoice as an e-invoice: Peppol BIS 3.0 or XRechnung UBL, CII, or Factur-X (its PDF as
 * PDF/A-3 with the CII inside), all from the same figures as the PDF. 404 for another team's invoice;
 * 409 for one not issued, or for a datum EN 16931 requires that is missing (named in `details`).
 */
export async function invoiceEInvoice(
  db: Db,
  teamId: string,
  id: string,
  format: EInvoiceFormat,
  storage?: Pick<Storage, 'get'>,
): Promise<EInvoiceFile> {
  return invoiceEInvoiceOf(db, teamId, await invoiceForPdf(db, teamId, id, storage), format);
}

/** invoiceEInvoice for an invoice already read with its parties (as its email has it). */
export async function invoiceEInvoiceOf(
  db: Db,
  teamId: string,
  data: Awaited<ReturnType<typeof invoiceForPdf>>,
  format: EInvoiceFormat,
): Promise<EInvoiceFile> {
  const { invoice } = data;
  if (!isIssued(invoice) || !invoice.invoiceNumber)
    throw conflict(`Invoice ${invoice.invoiceNumber ?? invoice.id} is ${invoice.status}: only an issued invoice has an e-invoice`);
  const source: Source = {
    kind: 'invoice',
    number: invoice.invoiceNumber,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    currency: invoice.currency,
    note: invoice.note,
    lines: invoice.lineItems.map((l) => ({ ...l, ...lineAmounts(l, invoice.currency) })),
    subtotal: invoice.subtotal,
    vat: invoice.vat,
    tax: invoice.tax,
    discount: invoice.discount,
    amount: invoice.amount,
    prepaid: invoice.status === 'paid' || invoice.status === 'refunded' ? invoice.amount : invoice.amountPaid,
    preceding: null,
    paymentTerms: invoice.dueDate ? `Due ${invoice.dueDate}. Please quote ${invoice.invoiceNumber} as the payment reference.` : null,
    team: await sellerOf(db, teamId),
    customer: data.customer,
  };
  const { xml } = render(source, format);
  const base = invoice.invoiceNumber;
  if (format !== 'facturx') return { body: Buffer.from(xml, 'utf8'), mimeType: 'application/xml', fileName: `${base}${SUFFIX[format]}` };
  return { body: await renderInvoicePdf(data, undefined, facturX(xml)), mimeType: 'application/pdf', fileName: `${base}${SUFFIX.facturx}` };
}

/** A credit note as an e-invoice (type 381, referring to the invoice it corrects); 404 for another team's. */
export async function creditNoteEInvoice(
  db: Db,
  teamId: string,
  id: string,
  format: EInvoiceFormat,
  storage?: Pick<Storage, 'get'>,
): Promise<EInvoiceFile> {
  return creditNoteEInvoiceOf(db, teamId, await creditNoteForPdf(db, teamId, id, storage), format);
}

/** creditNoteEInvoice for a credit note already read with its parties (as its email has it). */
export async function creditNoteEInvoiceOf(db: Db, teamId: string, data: CreditNoteForPdf, format: EInvoiceFormat): Promise<EInvoiceFile> {
  const { creditNote: cn, invoice } = data;
  // Each line's VAT as it was credited (a part credit never takes more than the line had left).
  const stored = await CreditNoteLineItem.query(db).where({ teamId, creditNoteId: cn.id }).orderBy('position').select('net', 'vatAmount');
  const invoiceNumber = invoice.invoiceNumber ?? invoice.id;
  const source: Source = {
    kind: 'credit-note',
    number: cn.creditNoteNumber,
    issueDate: cn.issueDate,
    dueDate: null,
    currency: cn.currency,
    note: cn.reason,
    lines: cn.lineItems.map((l, i) => ({ ...l, net: l.amount, vat: stored[i]?.vatAmount ?? 0 })),
    subtotal: cn.subtotal,
    vat: cn.vat,
    tax: cn.tax,
    discount: cn.discount,
    amount: cn.amount,
    prepaid: 0,
    preceding: { number: invoiceNumber, issueDate: invoice.issueDate },
    paymentTerms: `Corrects invoice ${invoiceNumber}: set against what is due on it; what was already paid is refunded.`,
    team: await sellerOf(db, teamId),
    customer: data.customer,
  };
  const { xml } = render(source, format);
  const base = cn.creditNoteNumber;
  if (format !== 'facturx') return { body: Buffer.from(xml, 'utf8'), mimeType: 'application/xml', fileName: `${base}${SUFFIX[format]}` };
  return { body: await renderCreditNotePdf(data, facturX(xml)), mimeType: 'application/pdf', fileName: `${base}${SUFFIX.facturx}` };
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * What an invoice's or credit note's email carries: its PDF, and the e-invoice its customer chose
 * (`eInvoiceFormat`): Factur-X in place of the PDF (it is the PDF, with the XML inside), an XML
 * beside it. A document EN 16931 cannot be made of (a datum missing, the 409 of the download) goes
 * out with its PDF alone: the email is not held back for it.
 */
export async function emailAttachments(
  format: EInvoiceFormat | null | undefined,
  pdf: { filename: string; render: () => Promise<Buffer> },
  eInvoice: (format: EInvoiceFormat) => Promise<EInvoiceFile>,
): Promise<MailAttachment[]> {
  const plain = async () => ({ filename: pdf.filename, content: await pdf.render(), contentType: 'application/pdf' });
  if (!format) return [await plain()];
  let file: EInvoiceFile;
  try {
    file = await eInvoice(format);
  } catch (err) {
    if (err instanceof AppError && err.status === 409) return [await plain()];
    throw err;
  }
  const made = { filename: file.fileName, content: file.body, contentType: file.mimeType };
  return format === 'facturx' ? [made] : [await plain(), made];
}

const FORMAT_NAMES: Record<EInvoiceFormat, string> = {
  ubl: 'Peppol UBL',
  xrechnung: 'XRechnung',
  cii: 'CII XML',
  facturx: 'Factur-X',
};

/** The public page's offer of the e-invoice its customer chose: the link's label; null when none was chosen. */
export const eInvoiceLabel = (format: EInvoiceFormat | null | undefined) =>
  format ? `Download e-invoice (${FORMAT_NAMES[format]})` : null;
