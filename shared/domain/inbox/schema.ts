import { z } from 'zod';
import {
  DOCUMENT_STATUSES,
  EXTRACTION_METHODS,
  INBOX_ITEM_STATUSES,
  INBOX_SOURCES,
  INBOX_STATUSES,
  RECEIVED_E_INVOICE_FORMATS,
} from '../../db/models';
import { isoDate, multi, pageSize, searchText } from '../common/query';
import { moneyAmount } from '../common/money';
import { currencyCode } from '../common/currency';

const minor = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description}, in the currency's minor unit (cents for EUR).` });

export const receivedEInvoiceSchema = z
  .object({
    format: z.enum(RECEIVED_E_INVOICE_FORMATS),
    typeCode: z.string().meta({ description: 'UNTDID 1001 document type: 380 invoice, 381 credit note.' }),
    number: z.string().meta({ description: 'The supplier’s invoice number (BT-1).' }),
    issueDate: z.string(),
    dueDate: z.string().nullable(),
    currency: z.string(),
    supplier: z.object({ name: z.string(), vatId: z.string().nullable() }),
    buyer: z.object({ name: z.string().nullable(), vatId: z.string().nullable() }),
    totals: z.object({
      lines: minor('Sum of the line nets (BT-106)'),
      allowances: minor('Document allowances (BT-107)'),
      charges: minor('Document charges (BT-108)'),
      net: minor('Total without VAT (BT-109)'),
      tax: minor('VAT total (BT-110)'),
      gross: minor('Total with VAT (BT-112)'),
      prepaid: minor('Paid in advance (BT-113)'),
      rounding: minor('Rounding (BT-114)'),
      payable: minor('Amount due (BT-115)'),
    }),
    vatBreakdown: z.array(
      z.object({
        category: z.string().nullable(),
        rate: z.number().nullable(),
        base: minor('Taxable amount of this category and rate'),
        vat: minor('VAT of this category and rate'),
      }),
    ),
    lines: z.array(
      z.object({
        id: z.string().nullable(),
        name: z.string().nullable(),
        quantity: z.string().nullable().meta({ description: 'As written in the XML.' }),
        unitCode: z.string().nullable(),
        price: z.string().nullable().meta({ description: 'Net unit price as written in the XML (up to four decimals).' }),
        net: minor('Line net'),
        category: z.string().nullable(),
        rate: z.number().nullable(),
      }),
    ),
    payment: z.object({ iban: z.string().nullable(), bic: z.string().nullable(), reference: z.string().nullable() }),
  })
  .meta({
    id: 'ReceivedEInvoice',
    description:
      'A supplier’s e-invoice as read structurally from its XML (Factur-X/ZUGFeRD embedded CII, XRechnung or Peppol UBL, or CII), without OCR. Its totals were checked to agree with its lines and with each other before it was accepted.',
  });

export const paymentDueSchema = z
  .object({
    amount: minor('What to pay (the e-invoice’s amount due)'),
    currency: z.string(),
    iban: z.string().nullable().meta({ description: 'The supplier’s account to pay to.' }),
    reference: z.string().meta({ description: 'What to quote with the transfer: the payment reference, else the invoice number.' }),
    dueDate: z.string().nullable(),
  })
  .meta({
    id: 'PaymentDue',
    description:
      'A payment to make: present while a received e-invoice (not a credit note) with an amount due is not matched to a bank transaction.',
  });

export const inboxItemSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(INBOX_ITEM_STATUSES).meta({ description: '`failed`: the file was refused (see `failureReason`).' }),
    source: z.enum(INBOX_SOURCES),
    sender: z.string().nullable(),
    fileName: z.string().nullable(),
    mimeType: z.string().nullable(),
    size: z.number().nullable(),
    displayName: z.string().nullable().meta({ description: 'Merchant, as read from the document.' }),
    note: z.string().nullable().meta({ description: 'What the sender wrote with the file (a chat caption), or a note added later.' }),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    date: z.string().nullable(),
    taxAmount: z.number().nullable(),
    taxRate: z.number().nullable(),
    extractionMethod: z.enum(EXTRACTION_METHODS).nullable().meta({
      description:
        "How the fields were read: `e_invoice` from a supplier's e-invoice XML (exact, see `eInvoice`), the PDF's text, OCR of the image, or the configured LLM; null until read, or when the file could not be read.",
    }),
    eInvoiceFormat: z.enum(RECEIVED_E_INVOICE_FORMATS).nullable().meta({
      description:
        'For a supplier’s e-invoice: `facturx` (Factur-X/ZUGFeRD PDF), `xrechnung`, `ubl` (Peppol BIS) or `cii`; also set on a refused one. Null for any other file.',
    }),
    eInvoice: receivedEInvoiceSchema.nullable().meta({
      description: 'What the e-invoice says, exactly. `amount` above is its amount due (BT-115) and `taxAmount` its VAT, in major units.',
    }),
    paymentDue: paymentDueSchema.nullable(),
    failureReason: z.string().nullable().meta({
      description:
        'Why the item is `failed`: an e-invoice that is malformed, declares a DTD or entities, or whose totals disagree with its lines or each other. Such an item keeps no amounts and is never matched.',
    }),
    documentStatus: z
      .enum(DOCUMENT_STATUSES)
      .nullable()
      .meta({ description: 'Reading the file: `failed` means it could not be read at all; fill in the fields by hand (PATCH).' }),
    transactionId: z.uuid().nullable().meta({ description: 'The transaction it is attached to, once matched.' }),
    suggestion: z
      .object({ transactionId: z.uuid(), confidence: z.number(), status: z.string() })
      .nullable()
      .meta({ description: 'The pending match suggestion, if any.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'InboxItem', description: 'A receipt or invoice received by chat, email or upload.' });

export type InboxItemDto = z.infer<typeof inboxItemSchema>;

export const listInboxQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  statuses: multi(z.enum(INBOX_STATUSES)).meta({ description: 'Default: everything except deleted.' }),
  q: searchText('Search in merchant, note, file name and the text of the document (what the receipt says).'),
  from: isoDate.optional().meta({ description: 'Document date from, inclusive.' }),
  to: isoDate.optional(),
});

export const inboxIdParams = z.object({ id: z.uuid() });
export const updateInboxBody = z
  .object({
    displayName: z.string().max(200).nullable().optional(),
    note: z.string().max(1000).nullable().optional(),
    amount: moneyAmount
      .refine((n) => n > 0, 'must be positive')
      .nullable()
      .optional(),
    currency: currencyCode.nullable().optional(),
    date: isoDate.nullable().optional(),
    status: z.enum(['pending', 'archived']).optional().meta({ description: 'Archive an item, or bring it back.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateInboxItem' });
export const decisionBody = z.object({ transactionId: z.uuid() }).strict();

export const decisionResultSchema = z
  .object({
    outcome: z
      .enum(['signalled', 'confirmed', 'declined', 'expired', 'already_handled', 'not_found'])
      .meta({ description: '`signalled`: the waiting workflow applies it and replies in chat; otherwise what was applied here.' }),
  })
  .meta({ id: 'DecisionResult' });
