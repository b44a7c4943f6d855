/** The syntax a received e-invoice came in: Factur-X/ZUGFeRD (a PDF with CII inside), XRechnung or Peppol UBL, or bare CII. */
export const RECEIVED_E_INVOICE_FORMATS = ['facturx', 'xrechnung', 'ubl', 'cii'] as const;
export type ReceivedFormat = (typeof RECEIVED_E_INVOICE_FORMATS)[number];

export interface ReceivedLine {
  id: string | null;
  name: string | null;
  quantity: string | null;
  unitCode: string | null;
  /** The unit price as written (up to four decimals, so not in minor units). */
  price: string | null;
  /** Line net, in minor units. */
  net: number;
  category: string | null;
  rate: number | null;
}

export interface ReceivedVat {
  category: string | null;
  rate: number | null;
  /** Minor units. */
  base: number;
  vat: number;
}

/**
 * A supplier's e-invoice as read from its XML, every amount in the currency's minor unit (cents for
 * EUR), exactly as written: nothing estimated, nothing OCR'd.
 */
export interface ReceivedEInvoice {
  format: ReceivedFormat;
  /** UNTDID 1001: 380 invoice, 381 credit note, and the other codes EN 16931 allows. */
  typeCode: string;
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  supplier: { name: string; vatId: string | null };
  buyer: { name: string | null; vatId: string | null };
  totals: {
    lines: number;
    allowances: number;
    charges: number;
    net: number;
    tax: number;
    gross: number;
    prepaid: number;
    rounding: number;
    payable: number;
  };
  vatBreakdown: ReceivedVat[];
  lines: ReceivedLine[];
  payment: { iban: string | null; bic: string | null; reference: string | null };
}
