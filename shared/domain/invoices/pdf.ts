import PDFDocument from 'pdfkit';
import type { Db } from '../../db/knex';
import type { Storage } from '../../providers/storage';
import { Customer, Document, Team } from '../../db/models';
import { formatMoney } from '../currencies/money';
import type { InvoiceDto } from './schema';
import { getInvoice } from './service';
import { numberShown } from './numbering';
import { lineAmounts } from './totals';
import { useUnicodeFonts } from './fonts';

/** What an invoice says of the team that sends it, on the PDF and in an e-invoice alike. */
export type SellerField =
  | 'name'
  | 'email'
  | 'countryCode'
  | 'invoicePaymentDetails'
  | 'addressLine1'
  | 'addressLine2'
  | 'city'
  | 'zip'
  | 'vatNumber'
  | 'taxNumber'
  | 'registrationNumber';

/** What an invoice says of the customer it is for, on the PDF and in an e-invoice alike. */
export type BuyerField =
  | 'name'
  | 'email'
  | 'billingEmail'
  | 'addressLine1'
  | 'addressLine2'
  | 'city'
  | 'state'
  | 'zip'
  | 'countryCode'
  | 'vatNumber'
  | 'buyerReference';

/** What the PDF shows besides the invoice: who sends it and who pays it. */
export interface InvoiceParties {
  team: Pick<Team, SellerField> & {
    /** The logo's bytes (PNG or JPEG), when the team has one and it could be read. */
    logo?: Buffer | null;
  };
  customer: Pick<Customer, BuyerField | 'eInvoiceFormat'> | null;
}

const LOCALE_BY_COUNTRY: Record<string, string> = {
  DE: 'de-DE',
  AT: 'de-AT',
  CH: 'de-CH',
  FR: 'fr-FR',
  BE: 'fr-BE',
  NL: 'nl-NL',
  ES: 'es-ES',
  IT: 'it-IT',
  SE: 'sv-SE',
  NO: 'nb-NO',
  DK: 'da-DK',
  FI: 'fi-FI',
  GB: 'en-GB',
  IE: 'en-IE',
  US: 'en-US',
  CA: 'en-CA',
  AU: 'en-AU',
};

/** How the team's documents write money and dates: its country's convention, else British English. */
export const localeOf = (countryCode: string | null) => LOCALE_BY_COUNTRY[countryCode ?? ''] ?? 'en-GB';

const MARGIN = 50;
const INK = '#1f2933';
const MUTED = '#616e7c';
const RULE = '#d9dee3';

/**
 * The invoice, its team (with its logo, read from storage) and its customer, as the PDF needs them;
 * 404 for another team's invoice. A logo that cannot be read is left out, never an error.
 */
export async function invoiceForPdf(
  db: Db,
  teamId: string,
  id: string,
  storage?: Pick<Storage, 'get'>,
): Promise<{ invoice: InvoiceDto } & InvoiceParties> {
  const invoice = await getInvoice(db, teamId, id);
  const [team, customer] = await Promise.all([
    // The whole row: a select list would pass address_line_1 through knex's name mapping, which writes it address_line1.
    Team.query(db).findById(teamId).throwIfNotFound(),
    invoice.customer ? Customer.query(db).findOne({ teamId, id: invoice.customer.id }) : null,
  ]);
  let logo: Buffer | null = null;
  if (storage && team.logoDocumentId) {
    const doc = await Document.query(db).findOne({ teamId, id: team.logoDocumentId }).select('storageKey');
    logo = doc ? await storage.get(doc.storageKey).catch(() => null) : null;
  }
  const {
    name,
    email,
    countryCode,
    invoicePaymentDetails,
    addressLine1,
    addressLine2,
    city,
    zip,
    vatNumber,
    taxNumber,
    registrationNumber,
  } = team;
  return {
    invoice,
    team: {
      name,
      email,
      countryCode,
      invoicePaymentDetails,
      addressLine1,
      addressLine2,
      city,
      zip,
      vatNumber,
      taxNumber,
      registrationNumber,
      logo,
    },
    customer: customer ?? null,
  };
}

/** The invoice's PDF as a download: its bytes and a file name from its number. */
export async function invoicePdfFile(
  db: Db,
  teamId: string,
  id: string,
  storage?: Pick<Storage, 'get'>,
): Promise<{ pdf: Buffer; fileName: string }> {
  const data = await invoiceForPdf(db, teamId, id, storage);
  return { pdf: await renderInvoicePdf(data), fileName: `${numberShown(data.invoice)}.pdf` };
}

/**
 * What the invoice says about paying it: paid (when and with which reference), or how to pay (the
 * team's payment details) and the reference to quote, which lets the transfer be matched to it.
 */
export function paymentLines(
  invoice: Pick<InvoiceDto, 'status' | 'invoiceNumber' | 'paidAt' | 'paymentReference'>,
  team: Pick<Team, 'invoicePaymentDetails'>,
  date: (d: string | null) => string,
): string[] {
  if (invoice.status === 'paid' || invoice.status === 'refunded') {
    const on = invoice.paidAt ? ` on ${date(invoice.paidAt.slice(0, 10))}` : '';
    return [`Paid${on}${invoice.paymentReference ? ` (reference ${invoice.paymentReference})` : ''}. Thank you.`];
  }
  return [
    ...(team.invoicePaymentDetails ? team.invoicePaymentDetails.split('\n') : []),
    `Please quote ${numberShown(invoice)} as the payment reference.`,
  ];
}

/**
 * The document as PDF/A-3b (fonts embedded, sRGB output intent, XMP metadata), with `finish` to add
 * what goes in before it is closed: Factur-X's embedded XML and its metadata.
 */
export interface ArchivalPdf {
  finish: (doc: PDFKit.PDFDocument) => void;
}

/** What another document made on the invoice template (a credit note) puts in place of the invoice's own. */
export interface DocumentHeading {
  title: string;
  /** The facts at the top right, from the template's date format. */
  facts: (date: (d: string | null) => string) => [string, string][];
  totalLabel: string;
  payment: string[];
}

/**
 * One A4 template: the team and the invoice's numbers at the top, the customer's billing address,
 * the lines with quantity, unit price and VAT, totals with VAT per rate, then payment and note.
 * Money is formatted for the team's country (1.234,56 € in Germany, €1,234.56 in Ireland), in the
 * currency's minor unit (¥1,000, BHD 1.235); unit prices keep the decimals they have.
 */
export function renderInvoicePdf(
  { invoice, team, customer }: { invoice: InvoiceDto } & InvoiceParties,
  heading?: DocumentHeading,
  archival?: ArchivalPdf,
): Promise<Buffer> {
  const title = heading?.title ?? 'Invoice';
  const locale = localeOf(team.countryCode);
  const money = (n: number, opts?: { price?: boolean }) => formatMoney(n, invoice.currency, locale, opts).replace(/[\u202f\u00a0]/g, ' ');
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
  const number = (n: number) => numbers.format(n).replace(/[\u202f\u00a0]/g, ' ');
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const date = (d: string | null) => (d ? dates.format(new Date(`${d}T00:00:00Z`)) : '—');

  // pdfkit copies these into the XMP metadata unescaped; a PDF/A file keeps the two the same, so
  // what XML would misread is left out of both.
  const meta = (text: string) => (archival ? text.replace(/[<>&]/g, ' ') : text);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: meta(`${title} ${numberShown(invoice)}`),
      Author: meta(team.name),
      Subject: meta(customer ? `${title} to ${customer.name}` : title),
    },
    ...(archival && { pdfVersion: '1.7' as const, subset: 'PDF/A-3b' as const, lang: 'en' }),
    // No default font: pdfkit would parse Helvetica's metrics for every document, and useUnicodeFonts
    // chooses the font of every string anyway.
    font: '',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // 'regular' and 'bold' below: each string in a Unicode font that draws it (a customer named 王小明 or Ωμέγα).
  useUnicodeFonts(doc);
  const width = doc.page.width - 2 * MARGIN;
  const right = doc.page.width - MARGIN;

  // Header: who sends it (its logo above its name), and the invoice's identity.
  let nameY = MARGIN;
  if (team.logo) {
    try {
      doc.image(team.logo, MARGIN, MARGIN, { fit: [150, 48] });
      nameY = MARGIN + 56;
    } catch {
      // An image pdfkit cannot read (a corrupt upload): the invoice goes out without it.
    }
  }
  doc
    .font('bold')
    .fontSize(20)
    .fillColor(INK)
    .text(team.name, MARGIN, nameY, { width: width / 2 });
  // Who issues it, as the law asks an invoice to say: address, VAT id (or tax number), registration.
  const sender = [
    team.addressLine1,
    team.addressLine2,
    [team.zip, team.city].filter(Boolean).join(' '),
    team.email,
    team.vatNumber ? `VAT ${team.vatNumber}` : team.taxNumber && `Tax no. ${team.taxNumber}`,
    team.registrationNumber,
  ].filter((l): l is string => Boolean(l));
  for (const line of sender)
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(MUTED)
      .text(line, { width: width / 2 });
  // Where the team's block ends (lower with a logo): the bill-to block starts below it.
  const teamBottom = doc.y;
  doc
    .font('bold')
    .fontSize(24)
    .fillColor(INK)
    .text(title, MARGIN + width / 2, MARGIN, { width: width / 2, align: 'right' });
  const facts: [string, string][] = heading?.facts(date) ?? [
    ['Number', numberShown(invoice)],
    ['Issued', date(invoice.issueDate)],
    ['Due', date(invoice.dueDate)],
  ];
  let factY = doc.y + 4;
  for (const [label, value] of facts) {
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, right - 190, factY, { width: 80, align: 'right' });
    doc
      .font('bold')
      .fillColor(INK)
      .text(value, right - 100, factY, { width: 100, align: 'right' });
    factY += 14;
  }

  // Bill to.
  let y = Math.max(teamBottom, factY, MARGIN + 70) + 24;
  doc.font('bold').fontSize(8).fillColor(MUTED).text('BILL TO', MARGIN, y);
  doc
    .font('bold')
    .fontSize(11)
    .fillColor(INK)
    .text(customer?.name ?? invoice.customer?.name ?? '—', MARGIN, doc.y + 3);
  const address = customer
    ? [
        customer.addressLine1,
        customer.addressLine2,
        [customer.zip, customer.city].filter(Boolean).join(' '),
        [customer.state, customer.countryCode].filter(Boolean).join(', '),
        customer.vatNumber && `VAT ${customer.vatNumber}`,
        customer.billingEmail ?? customer.email,
      ].filter((l): l is string => Boolean(l))
    : [];
  doc.font('regular').fontSize(9).fillColor(INK);
  for (const line of address) doc.text(line);

  // Lines.
  const cols = [
    { label: 'Description', x: MARGIN, w: width * 0.46, align: 'left' as const },
    { label: 'Qty', x: MARGIN + width * 0.46, w: width * 0.1, align: 'right' as const },
    { label: 'Unit price', x: MARGIN + width * 0.56, w: width * 0.16, align: 'right' as const },
    { label: 'VAT', x: MARGIN + width * 0.72, w: width * 0.1, align: 'right' as const },
    { label: 'Amount', x: MARGIN + width * 0.82, w: width * 0.18, align: 'right' as const },
  ];
  const header = (at: number) => {
    doc.font('bold').fontSize(8).fillColor(MUTED);
    for (const c of cols) doc.text(c.label.toUpperCase(), c.x, at, { width: c.w, align: c.align });
    doc
      .moveTo(MARGIN, at + 13)
      .lineTo(right, at + 13)
      .strokeColor(RULE)
      .lineWidth(0.8)
      .stroke();
    return at + 20;
  };
  y = header(doc.y + 28);
  doc.font('regular').fontSize(9).fillColor(INK);
  for (const line of invoice.lineItems) {
    const cells = [
      line.unit ? `${line.name} (${line.unit})` : line.name,
      number(line.quantity),
      money(line.price, { price: true }),
      line.vatRate ? `${number(line.vatRate)} %` : '—',
      money(lineAmounts(line, invoice.currency).net),
    ];
    const height = doc.heightOfString(cells[0], { width: cols[0].w });
    if (y + height > doc.page.height - MARGIN - 160) {
      doc.addPage();
      y = header(MARGIN);
      doc.font('regular').fontSize(9).fillColor(INK);
    }
    cells.forEach((text, i) => doc.text(text, cols[i].x, y, { width: cols[i].w, align: cols[i].align }));
    y += height + 8;
    doc
      .moveTo(MARGIN, y - 4)
      .lineTo(right, y - 4)
      .strokeColor(RULE)
      .lineWidth(0.4)
      .stroke();
  }

  // Totals, with VAT per rate as tax authorities ask.
  // Each line's amount and VAT in the currency's minor unit, as the stored totals are (totals.ts).
  const byRate = new Map<number, { base: number; vat: number }>();
  for (const l of invoice.lineItems) {
    if (!l.vatRate) continue;
    const r = byRate.get(l.vatRate) ?? { base: 0, vat: 0 };
    const { net, vat } = lineAmounts(l, invoice.currency);
    r.base += net;
    r.vat += vat;
    byRate.set(l.vatRate, r);
  }
  const totals: [string, string, boolean][] = [['Subtotal', money(invoice.subtotal), false]];
  for (const [rate, { base, vat }] of [...byRate].sort((a, b) => a[0] - b[0]))
    totals.push([`VAT ${number(rate)} % of ${money(base)}`, money(vat), false]);
  if (invoice.tax) totals.push(['Tax', money(invoice.tax), false]);
  // A credit note gives a discount back: its discount is negative, and shown as the sum it adds.
  if (invoice.discount) totals.push(['Discount', invoice.discount > 0 ? `−${money(invoice.discount)}` : money(-invoice.discount), false]);
  // Part payments: the total, what was paid, and what is still due.
  if (heading) totals.push([heading.totalLabel, money(invoice.amount), true]);
  else if (invoice.amountPaid > 0 && invoice.amountDue > 0) {
    totals.push(['Total', money(invoice.amount), false], ['Paid', `−${money(invoice.amountPaid)}`, false]);
    totals.push(['Amount due', money(invoice.amountDue), true]);
  } else totals.push(['Total due', money(invoice.amount), true]);
  y += 10;
  for (const [label, value, strong] of totals) {
    doc
      .font(strong ? 'bold' : 'regular')
      .fontSize(strong ? 12 : 9)
      .fillColor(strong ? INK : MUTED);
    doc.text(label, MARGIN + width * 0.4, y, { width: width * 0.4, align: 'right' });
    doc.fillColor(INK).text(value, MARGIN + width * 0.8, y, { width: width * 0.2, align: 'right' });
    y = doc.y + (strong ? 0 : 4);
  }

  // Payment and note.
  y += 24;
  doc.font('bold').fontSize(8).fillColor(MUTED).text('PAYMENT', MARGIN, y);
  doc.font('regular').fontSize(9).fillColor(INK);
  for (const line of heading?.payment ?? paymentLines(invoice, team, date)) doc.text(line, { width });
  y = doc.y + 12;
  if (invoice.note) {
    doc.font('bold').fontSize(8).fillColor(MUTED).text('NOTE', MARGIN, y);
    doc.font('regular').fontSize(9).fillColor(INK).text(invoice.note, { width });
  }
  archival?.finish(doc);
  doc.end();
  return done;
}
