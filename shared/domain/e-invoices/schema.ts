import { z } from 'zod';
import { E_INVOICE_FORMATS } from '../../db/models';

export const eInvoiceFormat = z.enum(E_INVOICE_FORMATS).meta({
  description:
    "`ubl`: Peppol BIS Billing 3.0 UBL; `xrechnung`: XRechnung 3.0 UBL (needs the customer's `buyerReference`, the Leitweg-ID); `cii`: UN/CEFACT CII D16B, EN 16931 profile; `facturx`: Factur-X / ZUGFeRD EN 16931, the PDF as PDF/A-3 with the CII embedded as `factur-x.xml`.",
});

export const eInvoiceQuery = z.object({ id: z.uuid(), format: eInvoiceFormat });

export const E_INVOICE_DESCRIPTION =
  'Made on request from the same figures as the PDF (amounts in the currency’s minor unit; VAT per category and rate: S for a rate above 0, and without VAT AE (reverse charge) for a buyer with a VAT id in another member state, G for a buyer outside the EU, Z otherwise). The seller is the team (`countryCode` and `vatNumber` or `taxNumber` required, see PATCH /teams/current), the buyer the customer (`countryCode` required). 409 naming in `details` each field EN 16931 or the format needs and the data lacks; 409 too for a discount on an invoice that charges VAT (EN 16931 lowers the VAT base with an allowance, the invoice took it off the total), for a tax other than VAT, and for a currency with three decimals.';
