import { amountText, decimalText, type EDocument, type EParty } from './document';
import { el, t } from './xml';

/** The EN 16931 guideline: what Factur-X and ZUGFeRD name their EN 16931 profile too. */
const GUIDELINE = 'urn:cen.eu:en16931:2017';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

const date102 = (d: string) => d.replace(/-/g, '');

function party(tag: string, p: EParty, role: 'seller' | 'buyer'): string {
  return el(tag, [
    el('ram:Name', t(p.name)),
    el('ram:SpecifiedLegalOrganization', el('ram:ID', t(p.registrationNumber))),
    role === 'seller'
      ? el('ram:DefinedTradeContact', [
          el('ram:PersonName', t(p.name)),
          el('ram:TelephoneUniversalCommunication', el('ram:CompleteNumber', t(p.phone))),
          el('ram:EmailURIUniversalCommunication', el('ram:URIID', t(p.email))),
        ])
      : '',
    el('ram:PostalTradeAddress', [
      el('ram:PostcodeCode', t(p.zip)),
      el('ram:LineOne', t(p.addressLine1)),
      el('ram:LineTwo', t(p.addressLine2)),
      el('ram:CityName', t(p.city)),
      el('ram:CountryID', t(p.countryCode)),
      el('ram:CountrySubDivisionName', t(p.state)),
    ]),
    el('ram:URIUniversalCommunication', el('ram:URIID', t(p.email), { schemeID: 'EM' })),
    el('ram:SpecifiedTaxRegistration', el('ram:ID', t(p.vatId), { schemeID: 'VA' })),
    el('ram:SpecifiedTaxRegistration', el('ram:ID', t(p.taxNumber), { schemeID: 'FC' })),
  ]);
}

/** One EN 16931 document as a UN/CEFACT Cross Industry Invoice (D16B), the XML inside Factur-X. */
export function ciiXml(doc: EDocument): string {
  const money = (n: number) => t(amountText(n, doc.digits));
  const lines = doc.lines.map((l) =>
    el('ram:IncludedSupplyChainTradeLineItem', [
      el('ram:AssociatedDocumentLineDocument', el('ram:LineID', t(l.id))),
      el('ram:SpecifiedTradeProduct', el('ram:Name', t(l.name))),
      el('ram:SpecifiedLineTradeAgreement', el('ram:NetPriceProductTradePrice', el('ram:ChargeAmount', t(decimalText(l.price))))),
      el('ram:SpecifiedLineTradeDelivery', el('ram:BilledQuantity', t(decimalText(l.quantity)), { unitCode: l.unitCode })),
      el('ram:SpecifiedLineTradeSettlement', [
        el('ram:ApplicableTradeTax', [
          el('ram:TypeCode', 'VAT'),
          el('ram:CategoryCode', t(l.category)),
          el('ram:RateApplicablePercent', t(decimalText(l.rate))),
        ]),
        el('ram:SpecifiedTradeSettlementLineMonetarySummation', el('ram:LineTotalAmount', money(l.net))),
      ]),
    ]),
  );
  const terms = [doc.paymentTerms, doc.payment?.note].filter(Boolean).join('\n');
  const settlement = el('ram:ApplicableHeaderTradeSettlement', [
    el('ram:PaymentReference', t(doc.remittance)),
    el('ram:InvoiceCurrencyCode', t(doc.currency)),
    doc.payment
      ? el('ram:SpecifiedTradeSettlementPaymentMeans', [
          el('ram:TypeCode', t(doc.payment.code)),
          doc.payment.iban
            ? el('ram:PayeePartyCreditorFinancialAccount', [
                el('ram:IBANID', t(doc.payment.iban)),
                el('ram:AccountName', t(doc.seller.name)),
              ])
            : '',
          el('ram:PayeeSpecifiedCreditorFinancialInstitution', el('ram:BICID', t(doc.payment.bic))),
        ])
      : '',
    ...doc.breakdown.map((b) =>
      el('ram:ApplicableTradeTax', [
        el('ram:CalculatedAmount', money(b.vat)),
        el('ram:TypeCode', 'VAT'),
        el('ram:ExemptionReason', t(b.exemptionReason)),
        el('ram:BasisAmount', money(b.base)),
        el('ram:CategoryCode', t(b.category)),
        el('ram:ExemptionReasonCode', t(b.exemptionCode)),
        el('ram:RateApplicablePercent', t(decimalText(b.rate))),
      ]),
    ),
    doc.allowance
      ? el('ram:SpecifiedTradeAllowanceCharge', [
          el('ram:ChargeIndicator', el('udt:Indicator', 'false')),
          el('ram:ActualAmount', money(doc.allowance.amount)),
          el('ram:Reason', 'Discount'),
          el('ram:CategoryTradeTax', [
            el('ram:TypeCode', 'VAT'),
            el('ram:CategoryCode', t(doc.allowance.category)),
            el('ram:RateApplicablePercent', t(decimalText(doc.allowance.rate))),
          ]),
        ])
      : '',
    terms || doc.dueDate
      ? el('ram:SpecifiedTradePaymentTerms', [
          el('ram:Description', t(terms)),
          doc.dueDate ? el('ram:DueDateDateTime', el('udt:DateTimeString', t(date102(doc.dueDate)), { format: '102' })) : '',
        ])
      : '',
    el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
      el('ram:LineTotalAmount', money(doc.totals.lines)),
      doc.allowance ? el('ram:AllowanceTotalAmount', money(doc.totals.allowances)) : '',
      el('ram:TaxBasisTotalAmount', money(doc.totals.taxExclusive)),
      el('ram:TaxTotalAmount', money(doc.totals.vat), { currencyID: doc.currency }),
      el('ram:GrandTotalAmount', money(doc.totals.taxInclusive)),
      doc.totals.prepaid ? el('ram:TotalPrepaidAmount', money(doc.totals.prepaid)) : '',
      el('ram:DuePayableAmount', money(doc.totals.payable)),
    ]),
    doc.preceding
      ? el('ram:InvoiceReferencedDocument', [
          el('ram:IssuerAssignedID', t(doc.preceding.number)),
          doc.preceding.issueDate
            ? el('ram:FormattedIssueDateTime', el('qdt:DateTimeString', t(date102(doc.preceding.issueDate)), { format: '102' }))
            : '',
        ])
      : '',
  ]);

  const body = [
    el('rsm:ExchangedDocumentContext', el('ram:GuidelineSpecifiedDocumentContextParameter', el('ram:ID', GUIDELINE))),
    el('rsm:ExchangedDocument', [
      el('ram:ID', t(doc.number)),
      el('ram:TypeCode', t(doc.typeCode)),
      el('ram:IssueDateTime', el('udt:DateTimeString', t(date102(doc.issueDate)), { format: '102' })),
      el('ram:IncludedNote', el('ram:Content', t(doc.note))),
    ]),
    el('rsm:SupplyChainTradeTransaction', [
      ...lines,
      el('ram:ApplicableHeaderTradeAgreement', [
        el('ram:BuyerReference', t(doc.buyerReference)),
        party('ram:SellerTradeParty', doc.seller, 'seller'),
        party('ram:BuyerTradeParty', doc.buyer, 'buyer'),
      ]),
      // Present though empty: the schema requires the delivery block, and the invoice records no delivery.
      '<ram:ApplicableHeaderTradeDelivery/>',
      settlement,
    ]),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n${el('rsm:CrossIndustryInvoice', body, {
    'xmlns:rsm': NS.rsm,
    'xmlns:qdt': NS.qdt,
    'xmlns:ram': NS.ram,
    'xmlns:udt': NS.udt,
  })}\n`;
}
