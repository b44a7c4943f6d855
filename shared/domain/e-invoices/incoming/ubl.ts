import { all, at, attr, textAt, type XmlNode, type XmlValue } from './safe-xml';
import {
  checkTotals,
  isoDateOf,
  minorUnits,
  optionalMinorUnits,
  percent,
  required,
  type ReceivedEInvoice,
  type ReceivedLine,
} from './received';

/** The tax total in the document's currency: UBL may state a second one in the accounting currency (BT-111). */
function taxTotal(root: XmlNode, currency: string): XmlValue | undefined {
  const totals = all(root, 'TaxTotal');
  return totals.find((t) => (attr(at(t, 'TaxAmount'), 'currencyID') ?? currency) === currency) ?? totals[0];
}

const vatScheme = (party: XmlValue | undefined) =>
  all(party, 'PartyTaxScheme').find((s) => (textAt(s, 'TaxScheme', 'ID') ?? 'VAT').toUpperCase() === 'VAT');

/** A UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0, XRechnung's UBL syntax). */
export function readUbl(tree: XmlNode): ReceivedEInvoice {
  const credit = tree.CreditNote !== undefined;
  const root = (credit ? tree.CreditNote : tree.Invoice) as XmlNode;
  const currency = required(textAt(root, 'DocumentCurrencyCode'), 'the currency (BT-5)').toUpperCase();
  const amount = (node: XmlValue | undefined, what: string, ...path: string[]) => minorUnits(textAt(node, ...path), currency, what);
  const optional = (node: XmlValue | undefined, what: string, ...path: string[]) =>
    optionalMinorUnits(textAt(node, ...path), currency, what);

  const supplier = at(root, 'AccountingSupplierParty', 'Party');
  const buyer = at(root, 'AccountingCustomerParty', 'Party');
  const sum = at(root, 'LegalMonetaryTotal');
  const tax = taxTotal(root, currency);
  const means = all(root, 'PaymentMeans');
  const account = means.map((m) => at(m, 'PayeeFinancialAccount')).find(Boolean);

  const lines: ReceivedLine[] = all(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((l, i) => {
    const quantity = at(l, credit ? 'CreditedQuantity' : 'InvoicedQuantity');
    return {
      id: textAt(l, 'ID'),
      name: textAt(l, 'Item', 'Name'),
      quantity: textAt(quantity),
      unitCode: attr(quantity, 'unitCode'),
      price: textAt(l, 'Price', 'PriceAmount'),
      net: amount(l, `line ${i + 1}'s net amount (BT-131)`, 'LineExtensionAmount'),
      category: textAt(l, 'Item', 'ClassifiedTaxCategory', 'ID'),
      rate: percent(textAt(l, 'Item', 'ClassifiedTaxCategory', 'Percent')),
    };
  });

  const inv: ReceivedEInvoice = {
    format: /xrechnung/i.test(textAt(root, 'CustomizationID') ?? '') ? 'xrechnung' : 'ubl',
    typeCode: textAt(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? (credit ? '381' : '380'),
    number: required(textAt(root, 'ID'), 'the invoice number (BT-1)'),
    issueDate: required(isoDateOf(textAt(root, 'IssueDate')), 'the issue date (BT-2)'),
    dueDate: isoDateOf(textAt(root, 'DueDate')) ?? isoDateOf(means.map((m) => textAt(m, 'PaymentDueDate')).find(Boolean) ?? null),
    currency,
    supplier: {
      name: required(
        textAt(supplier, 'PartyLegalEntity', 'RegistrationName') ?? textAt(supplier, 'PartyName', 'Name'),
        "the seller's name (BT-27)",
      ),
      vatId: textAt(vatScheme(supplier), 'CompanyID'),
    },
    buyer: {
      name: textAt(buyer, 'PartyLegalEntity', 'RegistrationName') ?? textAt(buyer, 'PartyName', 'Name'),
      vatId: textAt(vatScheme(buyer), 'CompanyID'),
    },
    totals: {
      lines: amount(sum, 'the sum of line nets (BT-106)', 'LineExtensionAmount'),
      allowances: optional(sum, 'the allowances (BT-107)', 'AllowanceTotalAmount'),
      charges: optional(sum, 'the charges (BT-108)', 'ChargeTotalAmount'),
      net: amount(sum, 'the tax-exclusive amount (BT-109)', 'TaxExclusiveAmount'),
      tax: optional(tax, 'the VAT total (BT-110)', 'TaxAmount'),
      gross: amount(sum, 'the tax-inclusive amount (BT-112)', 'TaxInclusiveAmount'),
      prepaid: optional(sum, 'the prepaid amount (BT-113)', 'PrepaidAmount'),
      rounding: optional(sum, 'the rounding amount (BT-114)', 'PayableRoundingAmount'),
      payable: amount(sum, 'the amount payable (BT-115)', 'PayableAmount'),
    },
    vatBreakdown: all(tax, 'TaxSubtotal').map((s) => ({
      category: textAt(s, 'TaxCategory', 'ID'),
      rate: percent(textAt(s, 'TaxCategory', 'Percent')),
      base: amount(s, 'a VAT category taxable amount (BT-116)', 'TaxableAmount'),
      vat: amount(s, 'a VAT category tax amount (BT-117)', 'TaxAmount'),
    })),
    lines,
    payment: {
      iban: textAt(account, 'ID')?.replace(/\s+/g, '').toUpperCase() ?? null,
      bic: textAt(account, 'FinancialInstitutionBranch', 'ID'),
      reference: means.map((m) => textAt(m, 'PaymentID')).find(Boolean) ?? null,
    },
  };
  checkTotals(inv);
  return inv;
}
