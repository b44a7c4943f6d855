import { minorUnitsOf } from '../../currencies/money';
import { pdfEmbeddedFiles } from '../../receipts/pdf-text';
import { readCii } from './cii';
import type { ReceivedEInvoice, ReceivedFormat } from './received';
import { parseXml, RefusedEInvoiceError } from './safe-xml';
import { readUbl } from './ubl';

/** What a received file turned out to be: no e-invoice (read it as any receipt), one read in full, or one refused with the reason. */
export type EInvoiceReading =
  { kind: 'none' } | { kind: 'read'; invoice: ReceivedEInvoice } | { kind: 'refused'; format: ReceivedFormat | null; reason: string };

/** The XML types a mail client or chat gives an e-invoice file. */
export const XML_MIME_TYPES: readonly string[] = ['application/xml', 'text/xml'];

// The names Factur-X 1.0, ZUGFeRD 2.x (and its XRechnung profile) and ZUGFeRD 1 give the embedded XML.
const EMBEDDED_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'zugferd_invoice.xml'];

const ROOT = /<(?:[\w.-]+:)?(Invoice|CreditNote|CrossIndustryInvoice)[\s>/]/;

/** Whether XML text names an e-invoice root near its start: cheap enough for every XML file uploaded. */
export const looksLikeEInvoiceXml = (head: string) => ROOT.test(head.slice(0, 4096));

function readXml(xml: string, container: 'facturx' | null): ReceivedEInvoice {
  const tree = parseXml(xml);
  if (tree.CrossIndustryInvoice !== undefined) return readCii(tree, container ?? 'cii');
  if (tree.Invoice !== undefined || tree.CreditNote !== undefined) return readUbl(tree);
  const root = Object.keys(tree).find((k) => !k.startsWith('?') && !k.startsWith('@_') && k !== '#text');
  throw new RefusedEInvoiceError(
    `the XML is no e-invoice: its root element is ${root ?? 'missing'}, not a UBL Invoice or a CII CrossIndustryInvoice`,
  );
}

const guessFormat = (xml: string, container: 'facturx' | null): ReceivedFormat | null => {
  if (container) return container;
  const root = ROOT.exec(xml.slice(0, 4096))?.[1];
  if (!root) return null;
  return root === 'CrossIndustryInvoice' ? 'cii' : /xrechnung/i.test(xml.slice(0, 4096)) ? 'xrechnung' : 'ubl';
};

function attempt(xml: string, container: 'facturx' | null): EInvoiceReading {
  try {
    return { kind: 'read', invoice: readXml(xml, container) };
  } catch (err) {
    if (!(err instanceof RefusedEInvoiceError)) throw err;
    return { kind: 'refused', format: guessFormat(xml, container), reason: err.message };
  }
}

/**
 * Reads a received file as an e-invoice, structurally: a PDF with a Factur-X/ZUGFeRD XML embedded,
 * or an XML file (XRechnung, Peppol UBL, CII). A PDF without that XML (or one pdf.js cannot open) is
 * no e-invoice and is read as any receipt; an XML file is always one, or refused, never guessed at.
 */
export async function readEInvoice(bytes: Buffer, mimeType: string): Promise<EInvoiceReading> {
  if (mimeType === 'application/pdf') {
    let files: Map<string, Buffer>;
    try {
      files = await pdfEmbeddedFiles(bytes);
    } catch {
      return { kind: 'none' };
    }
    const embedded = [...files].find(([name]) => EMBEDDED_NAMES.includes(name.toLowerCase()));
    return embedded ? attempt(embedded[1].toString('utf8'), 'facturx') : { kind: 'none' };
  }
  if (XML_MIME_TYPES.includes(mimeType)) return attempt(bytes.toString('utf8'), null);
  return { kind: 'none' };
}

/** The document text kept for search and classification: what the e-invoice says, in words. */
export function eInvoiceText(inv: ReceivedEInvoice): string {
  const digits = minorUnitsOf(inv.currency);
  const amount = (units: number) => (units / 10 ** digits).toFixed(digits);
  return [
    `E-invoice ${inv.format} (type ${inv.typeCode}) number ${inv.number} from ${inv.supplier.name}${inv.supplier.vatId ? ` VAT ${inv.supplier.vatId}` : ''}`,
    `Invoice date ${inv.issueDate}${inv.dueDate ? `, due date ${inv.dueDate}` : ''}`,
    ...inv.lines.map((l) => `${l.name ?? ''} ${l.quantity ?? ''} ${amount(l.net)}`.trim()),
    `Total ${inv.currency} ${amount(inv.totals.gross)}, payable ${amount(inv.totals.payable)}`,
    inv.payment.iban ? `IBAN ${inv.payment.iban}` : '',
    inv.payment.reference ? `Payment reference ${inv.payment.reference}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
