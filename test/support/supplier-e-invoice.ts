import PDFDocument from 'pdfkit';
import { ciiXml } from '../../shared/domain/e-invoices/cii';
import { buildEDocument, type Source } from '../../shared/domain/e-invoices/document';
import { facturX } from '../../shared/domain/e-invoices/facturx';
import { ublXml } from '../../shared/domain/e-invoices/ubl';
import { useUnicodeFonts } from '../../shared/domain/invoices/fonts';
import { invoiceTotals, lineAmounts } from '../../shared/domain/invoices/totals';

/**
 * A supplier's e-invoice to the team, made by our own e-invoice writers (the ones validated against
 * the EN 16931 schemas): the fixture every incoming-e-invoice test reads.
 */
export const SUPPLIER = { name: 'Lieferwerk Schmidt GmbH', vatId: 'DE811907980', iban: 'DE75512108001245126199' };

export interface SupplierInvoice {
  number?: string;
  issueDate?: string;
  dueDate?: string;
  currency?: string;
  lines?: { name: string; quantity: number; price: number; vatRate: number; unit?: string }[];
}

export function supplierSource(o: SupplierInvoice = {}): Source {
  const currency = o.currency ?? 'EUR';
  const lines = (
    o.lines ?? [
      { name: 'Server rack rental', quantity: 2, price: 480, vatRate: 19, unit: 'month' },
      { name: 'Cabling', quantity: 12, price: 7.45, vatRate: 19 },
      { name: 'Manual', quantity: 1, price: 24.9, vatRate: 7 },
    ]
  ).map((l) => ({ name: l.name, quantity: l.quantity, unit: l.unit ?? null, price: l.price, vatRate: l.vatRate, taxRate: null }));
  const totals = invoiceTotals(lines, 0, currency);
  return {
    kind: 'invoice',
    number: o.number ?? 'LS-2026-0417',
    issueDate: o.issueDate ?? '2026-11-03',
    dueDate: o.dueDate ?? '2026-11-17',
    currency,
    note: null,
    lines: lines.map((l) => ({ ...l, ...lineAmounts(l, currency) })),
    subtotal: totals.subtotal,
    vat: totals.vat,
    tax: totals.tax,
    discount: 0,
    amount: totals.amount,
    prepaid: 0,
    preceding: null,
    paymentTerms: 'Payable within 14 days.',
    team: {
      name: SUPPLIER.name,
      email: 'rechnung@lieferwerk.example',
      countryCode: 'DE',
      invoicePaymentDetails: `Sparkasse, IBAN ${SUPPLIER.iban}`,
      addressLine1: 'Werkstraße 9',
      addressLine2: null,
      city: 'Leipzig',
      zip: '04109',
      vatNumber: SUPPLIER.vatId,
      taxNumber: null,
      registrationNumber: null,
      phone: '+49 341 555010',
    },
    customer: {
      name: 'Acme Studio GmbH',
      email: 'billing@acme.example',
      billingEmail: null,
      addressLine1: 'Torstraße 1',
      addressLine2: null,
      city: 'Berlin',
      state: null,
      zip: '10119',
      countryCode: 'DE',
      vatNumber: 'DE123456789',
      buyerReference: '04011000-12345-34',
    },
  };
}

export const supplierUbl = (o: SupplierInvoice = {}, format: 'ubl' | 'xrechnung' = 'xrechnung') =>
  ublXml(buildEDocument(supplierSource(o), format), format);

export const supplierCii = (o: SupplierInvoice = {}) => ciiXml(buildEDocument(supplierSource(o), 'cii'));

/** A Factur-X PDF around the given CII, embedded as our Factur-X writer embeds it. */
export function facturXPdf(cii: string, text = 'Invoice LS-2026-0417'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ pdfVersion: '1.7', subset: 'PDF/A-3b', lang: 'de' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    useUnicodeFonts(doc);
    doc.font('regular').text(text);
    facturX(cii).finish(doc);
    doc.end();
  });
}
