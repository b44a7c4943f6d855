import type { Customer, E_INVOICE_FORMATS, Team } from '../../db/models';
import { AppError, type FieldProblem } from '../../errors';
import { minorUnitsOf, roundMoney } from '../currencies/money';
import { EU_COUNTRIES } from '../common/vat-id';
import type { BuyerField, SellerField } from '../invoices/pdf';

/** The formats an issued invoice or credit note is served in (`GET /invoices/:id/e-invoice?format=`). */
export type EInvoiceFormat = (typeof E_INVOICE_FORMATS)[number];

/** UNTDID 5305 VAT categories this service writes. */
export type VatCategory = 'S' | 'Z' | 'AE' | 'G';

export interface EParty {
  name: string;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  zip: string | null;
  state: string | null;
  countryCode: string;
  vatId: string | null;
  /** The seller's national tax number (BT-32); null for a buyer. */
  taxNumber: string | null;
  /** The seller's legal registration identifier (BT-30); null for a buyer. */
  registrationNumber: string | null;
  email: string | null;
  phone: string | null;
}

export interface ELine {
  id: string;
  name: string;
  /** Negative for a line with a negative price: EN 16931 has no negative unit price (BR-27). */
  quantity: number;
  unitCode: string;
  price: number;
  net: number;
  category: VatCategory;
  rate: number;
}

export interface EBreakdown {
  category: VatCategory;
  rate: number;
  base: number;
  vat: number;
  exemptionCode: string | null;
  exemptionReason: string | null;
}

/**
 * An invoice or credit note as EN 16931 sees it: one model, written by the UBL and CII writers, so
 * every syntax says the same. Amounts are the document's own, in the currency's minor unit, as the
 * PDF prints them; a credit note's are positive (its type code, 381, says it credits).
 */
export interface EDocument {
  typeCode: '380' | '381';
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  /** Digits the amounts are written with: the currency's minor unit (2 for EUR, 0 for JPY). */
  digits: number;
  buyerReference: string | null;
  note: string | null;
  /** BG-3: the invoice a credit note corrects. */
  preceding: { number: string; issueDate: string | null } | null;
  seller: EParty;
  buyer: EParty;
  /** BT-83: what the payer quotes; the PDF asks for the same. */
  remittance: string;
  payment: { code: '58' | '1'; iban: string | null; bic: string | null; note: string | null } | null;
  paymentTerms: string | null;
  lines: ELine[];
  /** The document's discount as one allowance (BG-20); only in a 0 % category, where it leaves the VAT as printed. */
  allowance: { amount: number; category: VatCategory; rate: number } | null;
  breakdown: EBreakdown[];
  totals: { lines: number; allowances: number; taxExclusive: number; vat: number; taxInclusive: number; prepaid: number; payable: number };
}

/** A line as the invoice (or credit note) holds it. */
export interface SourceLine {
  name: string;
  quantity: number;
  unit: string | null;
  price: number;
  vatRate: number | null;
  taxRate: number | null;
  net: number;
  vat: number;
}

export interface Source {
  kind: 'invoice' | 'credit-note';
  number: string;
  issueDate: string | null;
  dueDate: string | null;
  currency: string;
  note: string | null;
  lines: SourceLine[];
  subtotal: number;
  vat: number;
  tax: number;
  discount: number;
  amount: number;
  prepaid: number;
  preceding: { number: string; issueDate: string | null } | null;
  paymentTerms: string | null;
  team: Pick<Team, SellerField | 'phone'>;
  customer: Pick<Customer, BuyerField> | null;
}

// UN/ECE Recommendation 20 codes for the units people type on invoice lines; any other unit is C62 ("one").
const UNIT_CODES: [RegExp, string][] = [
  [/^(h|hr|hrs|hour|hours|std|stunde|stunden|heure|heures|uur)$/, 'HUR'],
  [/^(min|mins|minute|minutes|minuten)$/, 'MIN'],
  [/^(d|day|days|tag|tage|jour|jours|dag|dagen)$/, 'DAY'],
  [/^(wk|week|weeks|woche|wochen)$/, 'WEE'],
  [/^(mo|month|months|monat|monate|mois)$/, 'MON'],
  [/^(yr|year|years|jahr|jahre)$/, 'ANN'],
  [/^(pc|pcs|piece|pieces|stk|stück|unit|units|ea|each)$/, 'H87'],
  [/^(kg|kilogram|kilograms)$/, 'KGM'],
  [/^(g|gram|grams)$/, 'GRM'],
  [/^(t|tonne|tonnes)$/, 'TNE'],
  [/^(l|liter|litre|liters|litres)$/, 'LTR'],
  [/^(m|metre|meter|metres|meters)$/, 'MTR'],
  [/^(km|kilometre|kilometer|kilometres|kilometers)$/, 'KMT'],
  [/^(m2|m²|sqm)$/, 'MTK'],
  [/^(m3|m³)$/, 'MTQ'],
];
export const unitCodeOf = (unit: string | null) => {
  const u = (unit ?? '').trim().toLowerCase().replace(/\.$/, '');
  return UNIT_CODES.find(([re]) => re.test(u))?.[1] ?? 'C62';
};

const EXEMPTION: Record<VatCategory, { code: string; reason: string } | null> = {
  S: null,
  Z: null,
  AE: { code: 'VATEX-EU-AE', reason: 'Reverse charge' },
  G: { code: 'VATEX-EU-G', reason: 'Export outside the EU' },
};

const euCountry = (country: string | null) => (country === 'EL' ? true : EU_COUNTRIES.has(country ?? ''));

/**
 * The VAT category of a line, from its rate and the two parties (the invoice stores no category):
 * a rate above 0 is standard (S); without VAT, a buyer in another member state with a VAT id is
 * reverse charge (AE), a buyer outside the EU an export (G), and anything else zero rated (Z).
 */
export function vatCategoryOf(
  rate: number,
  seller: { countryCode: string },
  buyer: { countryCode: string; vatId: string | null },
): VatCategory {
  if (rate > 0) return 'S';
  if (euCountry(seller.countryCode) && euCountry(buyer.countryCode) && buyer.countryCode !== seller.countryCode && buyer.vatId) return 'AE';
  if (euCountry(seller.countryCode) && !euCountry(buyer.countryCode)) return 'G';
  return 'Z';
}

const IBAN = /\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b/;
const BIC = /\b(?:BIC|SWIFT)\b[:\s]*([A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b/i;

const ibanChecks = (iban: string) => {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of moved) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
};

/** How the team is paid, from its free-text payment details: a SEPA transfer when they hold an IBAN. */
export function paymentMeansOf(details: string | null): EDocument['payment'] {
  if (!details?.trim()) return null;
  const found = IBAN.exec(details.toUpperCase())?.[1]?.replace(/ /g, '');
  const iban = found && ibanChecks(found) ? found : null;
  const bic = BIC.exec(details)?.[1]?.toUpperCase() ?? null;
  return iban ? { code: '58', iban, bic, note: null } : { code: '1', iban: null, bic: null, note: details.trim() };
}

/** A 409 naming each datum the e-invoice needs and the invoice, the team or the customer does not hold. */
const missing = (what: string, problems: FieldProblem[]) =>
  new AppError(409, 'Conflict', `The e-invoice cannot be made: ${what}`, problems);

/**
 * The EN 16931 document of an issued invoice or credit note. Whatever EN 16931 (or the format's rules:
 * XRechnung's, Peppol's) requires and is missing is a 409 naming the field to fill in, never an
 * invalid document.
 */
export function buildEDocument(src: Source, format: EInvoiceFormat): EDocument {
  const { team, customer, currency } = src;
  const problems: FieldProblem[] = [];
  const need = (ok: unknown, field: string, message: string) => {
    if (!ok) problems.push({ field, message });
  };
  need(team.countryCode, 'team.countryCode', "the seller's country (BT-40): set it with PATCH /teams/current");
  need(customer, 'invoice.customerId', 'the buyer (BG-7): the invoice has no customer');
  need(!customer || customer.countryCode, 'customer.countryCode', "the buyer's country (BT-55): set it on the customer");
  need(
    team.vatNumber || team.taxNumber,
    'team.vatNumber',
    "the seller's VAT identifier (BT-31) or tax number (BT-32): set one with PATCH /teams/current",
  );
  // BR-CO-26: the buyer identifies the seller by its VAT identifier or, without one, its legal registration.
  need(
    team.vatNumber || !team.taxNumber || team.registrationNumber,
    'team.registrationNumber',
    'a seller without a VAT identifier is identified by its legal registration (BT-30, e.g. the commercial register number): set it with PATCH /teams/current',
  );
  need(src.issueDate, 'invoice.issueDate', 'the issue date (BT-2)');
  if (format === 'xrechnung') {
    need(
      customer?.buyerReference,
      'customer.buyerReference',
      'XRechnung requires the buyer reference (BT-10, the Leitweg-ID): set it on the customer',
    );
    need(team.addressLine1, 'team.addressLine1', "XRechnung requires the seller's street (BT-35)");
    need(team.city, 'team.city', "XRechnung requires the seller's city (BT-37)");
    need(team.zip, 'team.zip', "XRechnung requires the seller's post code (BT-38)");
    need(team.phone, 'team.phone', 'XRechnung requires a seller contact telephone (BT-42)');
    need(team.invoicePaymentDetails, 'team.invoicePaymentDetails', 'XRechnung requires payment instructions (BG-16)');
    need(!customer || customer.city, 'customer.city', "XRechnung requires the buyer's city (BT-52)");
    need(!customer || customer.zip, 'customer.zip', "XRechnung requires the buyer's post code (BT-53)");
  }
  if (format === 'ubl' || format === 'xrechnung') {
    need(team.email, 'team.email', "the seller's electronic address (BT-34): the team's email");
    need(
      !customer || customer.billingEmail || customer.email,
      'customer.email',
      "the buyer's electronic address (BT-49): the customer's email or billingEmail",
    );
  }
  if (minorUnitsOf(currency) > 2)
    problems.push({
      field: 'invoice.currency',
      message: `EN 16931 writes amounts with at most 2 decimals; ${currency} has ${minorUnitsOf(currency)}`,
    });
  src.lines.forEach((l, i) => {
    if (l.taxRate) problems.push({ field: `lineItems.${i}.taxRate`, message: 'a tax other than VAT has no place in an EN 16931 invoice' });
  });
  if (problems.length || !customer?.countryCode || !team.countryCode || !src.issueDate)
    throw missing(problems.map((p) => p.field).join(', ') || 'incomplete data', problems);

  const seller: EParty = {
    name: team.name,
    addressLine1: team.addressLine1,
    addressLine2: team.addressLine2,
    city: team.city,
    zip: team.zip,
    state: null,
    countryCode: team.countryCode,
    vatId: team.vatNumber,
    taxNumber: team.taxNumber,
    registrationNumber: team.registrationNumber,
    email: team.email,
    phone: team.phone,
  };
  const buyer: EParty = {
    name: customer.name,
    addressLine1: customer.addressLine1,
    addressLine2: customer.addressLine2,
    city: customer.city,
    zip: customer.zip,
    state: customer.state,
    countryCode: customer.countryCode,
    vatId: customer.vatNumber,
    taxNumber: null,
    registrationNumber: null,
    email: customer.billingEmail ?? customer.email,
    phone: null,
  };

  const round = (n: number) => roundMoney(n, currency);
  const lines: ELine[] = src.lines.map((l, i) => {
    const rate = l.vatRate ?? 0;
    const negative = l.price < 0;
    return {
      id: String(i + 1),
      name: l.name,
      quantity: negative ? -l.quantity : l.quantity,
      unitCode: unitCodeOf(l.unit),
      price: Math.abs(l.price),
      net: l.net,
      category: vatCategoryOf(rate, seller, buyer),
      rate,
    };
  });

  // VAT per category and rate: the lines' amounts and VAT as printed, summed.
  const groups = new Map<string, EBreakdown>();
  lines.forEach((l, i) => {
    const key = `${l.category}:${l.rate}`;
    const g = groups.get(key) ?? { category: l.category, rate: l.rate, base: 0, vat: 0, exemptionCode: null, exemptionReason: null };
    g.base = round(g.base + l.net);
    g.vat = round(g.vat + src.lines[i].vat);
    const ex = EXEMPTION[l.category];
    if (ex) Object.assign(g, { exemptionCode: ex.code, exemptionReason: ex.reason });
    groups.set(key, g);
  });
  const breakdown = [...groups.values()].sort((a, b) => a.category.localeCompare(b.category) || a.rate - b.rate);

  const categories = new Set(breakdown.map((b) => b.category));
  if ((categories.has('AE') || categories.has('G')) && !seller.vatId)
    throw missing('team.vatNumber', [
      { field: 'team.vatNumber', message: "a reverse-charge or export line needs the seller's VAT identifier (BT-31), not a tax number" },
    ]);
  if (categories.has('AE') && !buyer.vatId)
    throw missing('customer.vatNumber', [
      { field: 'customer.vatNumber', message: "a reverse-charge line needs the buyer's VAT identifier (BT-48)" },
    ]);

  // The invoice's discount comes off the total after VAT. EN 16931's allowance lowers the VAT base
  // instead, so only a discount on a single 0 % category says the same as the PDF.
  let allowance: EDocument['allowance'] = null;
  if (src.discount > 0) {
    const only = breakdown.length === 1 ? breakdown[0] : null;
    if (!only || only.rate !== 0)
      throw missing('invoice.discount', [
        {
          field: 'invoice.discount',
          message:
            'the discount is taken off the total after VAT, which EN 16931 cannot express when VAT is charged (its allowances lower the VAT base); issue the invoice without it, or with a negative line',
        },
      ]);
    only.base = round(only.base - src.discount);
    allowance = { amount: src.discount, category: only.category, rate: 0 };
  }

  const lineTotal = round(lines.reduce((s, l) => s + l.net, 0));
  const vat = round(breakdown.reduce((s, b) => s + b.vat, 0));
  const taxExclusive = round(lineTotal - src.discount);
  const taxInclusive = round(taxExclusive + vat);
  // The e-invoice states what the PDF states: the same totals, or it is not made at all.
  if (lineTotal !== round(src.subtotal) || vat !== round(src.vat) || taxInclusive !== round(src.amount))
    throw new Error(
      `e-invoice totals differ from the document's: ${lineTotal}/${vat}/${taxInclusive} against ${src.subtotal}/${src.vat}/${src.amount}`,
    );
  const prepaid = round(Math.min(src.prepaid, taxInclusive));

  return {
    typeCode: src.kind === 'invoice' ? '380' : '381',
    number: src.number,
    issueDate: src.issueDate,
    dueDate: src.dueDate,
    currency,
    digits: minorUnitsOf(currency),
    buyerReference: customer.buyerReference ?? (format === 'ubl' ? src.number : null),
    note: src.note,
    preceding: src.preceding,
    seller,
    buyer,
    remittance: src.number,
    payment: paymentMeansOf(team.invoicePaymentDetails),
    paymentTerms: src.paymentTerms,
    lines,
    allowance,
    breakdown,
    totals: {
      lines: lineTotal,
      allowances: src.discount,
      taxExclusive,
      vat,
      taxInclusive,
      prepaid,
      payable: round(taxInclusive - prepaid),
    },
  };
}

/** An amount as EN 16931 writes it: the currency's digits, no sign on zero. */
export const amountText = (n: number, digits: number) => (Object.is(n, -0) || n === 0 ? 0 : n).toFixed(digits);

/** A quantity, price or rate: up to four decimals, without trailing zeros. */
export const decimalText = (n: number) => {
  const s = (n === 0 ? 0 : n).toFixed(4).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
};
