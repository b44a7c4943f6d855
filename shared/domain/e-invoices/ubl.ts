import { amountText, decimalText, type EDocument, type EParty } from './document';
import { el, t } from './xml';

/** Peppol BIS Billing 3.0 and XRechnung 3.0 (its UBL syntax): EN 16931 CIUSes on the Peppol billing process. */
const CUSTOMIZATION = {
  ubl: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
} as const;
const PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

function party(p: EParty, role: 'seller' | 'buyer', xrechnung: boolean): string {
  const address = el('cac:PostalAddress', [
    el('cbc:StreetName', t(p.addressLine1)),
    el('cbc:AdditionalStreetName', t(p.addressLine2)),
    el('cbc:CityName', t(p.city)),
    el('cbc:PostalZone', t(p.zip)),
    el('cbc:CountrySubentity', t(p.state)),
    el('cac:Country', el('cbc:IdentificationCode', t(p.countryCode))),
  ]);
  const scheme = (id: string | null, scheme: string) =>
    el('cac:PartyTaxScheme', [el('cbc:CompanyID', t(id)), el('cac:TaxScheme', el('cbc:ID', t(scheme)))]);
  // XRechnung asks for a seller contact with name, telephone and email (BR-DE-2).
  const contact =
    role === 'seller'
      ? el('cac:Contact', [
          el('cbc:Name', xrechnung ? t(p.name) : ''),
          el('cbc:Telephone', t(p.phone)),
          el('cbc:ElectronicMail', t(p.email)),
        ])
      : '';
  return el('cac:Party', [
    el('cbc:EndpointID', t(p.email), { schemeID: 'EM' }),
    el('cac:PartyName', el('cbc:Name', t(p.name))),
    address,
    p.vatId ? scheme(p.vatId, 'VAT') : '',
    p.taxNumber ? scheme(p.taxNumber, 'FC') : '',
    el('cac:PartyLegalEntity', [el('cbc:RegistrationName', t(p.name)), el('cbc:CompanyID', t(p.registrationNumber))]),
    contact,
  ]);
}

/** One EN 16931 document as a UBL 2.1 Invoice (380) or CreditNote (381). */
export function ublXml(doc: EDocument, format: 'ubl' | 'xrechnung'): string {
  const credit = doc.typeCode === '381';
  const root = credit ? 'CreditNote' : 'Invoice';
  const money = (n: number) => t(amountText(n, doc.digits));
  const cur = { currencyID: doc.currency };
  const category = (c: { category: string; rate: number }, tag: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory', extra = '') =>
    el(tag, [el('cbc:ID', t(c.category)), el('cbc:Percent', t(decimalText(c.rate))), extra, el('cac:TaxScheme', el('cbc:ID', 'VAT'))]);

  const payment = doc.payment
    ? el('cac:PaymentMeans', [
        el('cbc:PaymentMeansCode', t(doc.payment.code)),
        el('cbc:PaymentID', t(doc.remittance)),
        doc.payment.iban
          ? el('cac:PayeeFinancialAccount', [
              el('cbc:ID', t(doc.payment.iban)),
              el('cbc:Name', t(doc.seller.name)),
              el('cac:FinancialInstitutionBranch', el('cbc:ID', t(doc.payment.bic))),
            ])
          : '',
      ])
    : '';
  const paymentTerms = [doc.paymentTerms, doc.payment?.note].filter(Boolean).join('\n');

  const lines = doc.lines.map((l) =>
    el(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
      el('cbc:ID', t(l.id)),
      el(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', t(decimalText(l.quantity)), { unitCode: l.unitCode }),
      el('cbc:LineExtensionAmount', money(l.net), cur),
      el('cac:Item', [el('cbc:Name', t(l.name)), category(l, 'cac:ClassifiedTaxCategory')]),
      el('cac:Price', el('cbc:PriceAmount', t(decimalText(l.price)), cur)),
    ]),
  );

  const body = [
    el('cbc:CustomizationID', t(CUSTOMIZATION[format])),
    el('cbc:ProfileID', t(PROFILE)),
    el('cbc:ID', t(doc.number)),
    el('cbc:IssueDate', t(doc.issueDate)),
    credit ? '' : el('cbc:DueDate', t(doc.dueDate)),
    el(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', t(doc.typeCode)),
    el('cbc:Note', t(doc.note)),
    el('cbc:DocumentCurrencyCode', t(doc.currency)),
    el('cbc:BuyerReference', t(doc.buyerReference)),
    doc.preceding
      ? el(
          'cac:BillingReference',
          el('cac:InvoiceDocumentReference', [el('cbc:ID', t(doc.preceding.number)), el('cbc:IssueDate', t(doc.preceding.issueDate))]),
        )
      : '',
    el('cac:AccountingSupplierParty', party(doc.seller, 'seller', format === 'xrechnung')),
    el('cac:AccountingCustomerParty', party(doc.buyer, 'buyer', format === 'xrechnung')),
    payment,
    el('cac:PaymentTerms', el('cbc:Note', t(paymentTerms))),
    doc.allowance
      ? el('cac:AllowanceCharge', [
          el('cbc:ChargeIndicator', 'false'),
          el('cbc:AllowanceChargeReason', 'Discount'),
          el('cbc:Amount', money(doc.allowance.amount), cur),
          category(doc.allowance, 'cac:TaxCategory'),
        ])
      : '',
    el('cac:TaxTotal', [
      el('cbc:TaxAmount', money(doc.totals.vat), cur),
      ...doc.breakdown.map((b) =>
        el('cac:TaxSubtotal', [
          el('cbc:TaxableAmount', money(b.base), cur),
          el('cbc:TaxAmount', money(b.vat), cur),
          category(
            b,
            'cac:TaxCategory',
            [el('cbc:TaxExemptionReasonCode', t(b.exemptionCode)), el('cbc:TaxExemptionReason', t(b.exemptionReason))].join(''),
          ),
        ]),
      ),
    ]),
    el('cac:LegalMonetaryTotal', [
      el('cbc:LineExtensionAmount', money(doc.totals.lines), cur),
      el('cbc:TaxExclusiveAmount', money(doc.totals.taxExclusive), cur),
      el('cbc:TaxInclusiveAmount', money(doc.totals.taxInclusive), cur),
      doc.allowance ? el('cbc:AllowanceTotalAmount', money(doc.totals.allowances), cur) : '',
      doc.totals.prepaid ? el('cbc:PrepaidAmount', money(doc.totals.prepaid), cur) : '',
      el('cbc:PayableAmount', money(doc.totals.payable), cur),
    ]),
    ...lines,
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n${el(root, body, {
    xmlns: credit ? NS.creditNote : NS.invoice,
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  })}\n`;
}
