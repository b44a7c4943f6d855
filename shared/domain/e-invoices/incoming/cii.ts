import { all, at, attr, textAt, type XmlNode, type XmlValue } from './safe-xml';
import {
  checkTotals,
  isoDateOf,
  minorUnits,
  optionalMinorUnits,
  percent,
  required,
  type ReceivedEInvoice,
  type ReceivedFormat,
  type ReceivedLine,
} from './received';

const dateAt = (node: XmlValue | undefined, ...path: string[]) => isoDateOf(textAt(at(node, ...path), 'DateTimeString'));

/** A party's VAT identifier: the tax registration with scheme VA (FC is the national tax number). */
const vatIdOf = (party: XmlValue | undefined) =>
  textAt(
    all(party, 'SpecifiedTaxRegistration').find((r) => attr(at(r, 'ID'), 'schemeID') === 'VA'),
    'ID',
  );

/** A UN/CEFACT Cross Industry Invoice (D16B): bare, or the XML inside a Factur-X/ZUGFeRD PDF. */
export function readCii(tree: XmlNode, format: Extract<ReceivedFormat, 'cii' | 'facturx'>): ReceivedEInvoice {
  const root = tree.CrossIndustryInvoice as XmlNode;
  const doc = at(root, 'ExchangedDocument');
  const trade = at(root, 'SupplyChainTradeTransaction');
  const agreement = at(trade, 'ApplicableHeaderTradeAgreement');
  const settlement = at(trade, 'ApplicableHeaderTradeSettlement');
  const currency = required(textAt(settlement, 'InvoiceCurrencyCode'), 'the currency (BT-5)').toUpperCase();
  const amount = (node: XmlValue | undefined, what: string, ...path: string[]) => minorUnits(textAt(node, ...path), currency, what);
  const optional = (node: XmlValue | undefined, what: string, ...path: string[]) =>
    optionalMinorUnits(textAt(node, ...path), currency, what);

  const sum = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  // A second tax total may be given in the accounting currency (BT-111): the document's is the one in its currency.
  const taxTotals = all(sum, 'TaxTotalAmount');
  const tax = taxTotals.find((t) => (attr(t, 'currencyID') ?? currency) === currency) ?? taxTotals[0];
  const seller = at(agreement, 'SellerTradeParty');
  const buyer = at(agreement, 'BuyerTradeParty');
  const means = all(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const account = means.map((m) => at(m, 'PayeePartyCreditorFinancialAccount')).find(Boolean);

  const lines: ReceivedLine[] = all(trade, 'IncludedSupplyChainTradeLineItem').map((l, i) => {
    const quantity = at(l, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
    const lineTax = at(l, 'SpecifiedLineTradeSettlement', 'ApplicableTradeTax');
    return {
      id: textAt(l, 'AssociatedDocumentLineDocument', 'LineID'),
      name: textAt(l, 'SpecifiedTradeProduct', 'Name'),
      quantity: textAt(quantity),
      unitCode: attr(quantity, 'unitCode'),
      price: textAt(l, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount'),
      net: amount(
        l,
        `line ${i + 1}'s net amount (BT-131)`,
        'SpecifiedLineTradeSettlement',
        'SpecifiedTradeSettlementLineMonetarySummation',
        'LineTotalAmount',
      ),
      category: textAt(lineTax, 'CategoryCode'),
      rate: percent(textAt(lineTax, 'RateApplicablePercent')),
    };
  });

  const inv: ReceivedEInvoice = {
    format,
    typeCode: textAt(doc, 'TypeCode') ?? '380',
    number: required(textAt(doc, 'ID'), 'the invoice number (BT-1)'),
    issueDate: required(dateAt(doc, 'IssueDateTime'), 'the issue date (BT-2)'),
    dueDate:
      all(settlement, 'SpecifiedTradePaymentTerms')
        .map((t) => dateAt(t, 'DueDateDateTime'))
        .find(Boolean) ?? null,
    currency,
    supplier: { name: required(textAt(seller, 'Name'), "the seller's name (BT-27)"), vatId: vatIdOf(seller) },
    buyer: { name: textAt(buyer, 'Name'), vatId: vatIdOf(buyer) },
    totals: {
      lines: amount(sum, 'the sum of line nets (BT-106)', 'LineTotalAmount'),
      allowances: optional(sum, 'the allowances (BT-107)', 'AllowanceTotalAmount'),
      charges: optional(sum, 'the charges (BT-108)', 'ChargeTotalAmount'),
      net: amount(sum, 'the tax-exclusive amount (BT-109)', 'TaxBasisTotalAmount'),
      tax: optionalMinorUnits(textAt(tax), currency, 'the VAT total (BT-110)'),
      gross: amount(sum, 'the tax-inclusive amount (BT-112)', 'GrandTotalAmount'),
      prepaid: optional(sum, 'the prepaid amount (BT-113)', 'TotalPrepaidAmount'),
      rounding: optional(sum, 'the rounding amount (BT-114)', 'RoundingAmount'),
      payable: amount(sum, 'the amount payable (BT-115)', 'DuePayableAmount'),
    },
    vatBreakdown: all(settlement, 'ApplicableTradeTax').map((t) => ({
      category: textAt(t, 'CategoryCode'),
      rate: percent(textAt(t, 'RateApplicablePercent')),
      base: amount(t, 'a VAT category taxable amount (BT-116)', 'BasisAmount'),
      vat: amount(t, 'a VAT category tax amount (BT-117)', 'CalculatedAmount'),
    })),
    lines,
    payment: {
      iban: textAt(account, 'IBANID')?.replace(/\s+/g, '').toUpperCase() ?? null,
      bic: means.map((m) => textAt(m, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID')).find(Boolean) ?? null,
      reference: textAt(settlement, 'PaymentReference'),
    },
  };
  checkTotals(inv);
  return inv;
}
