import type { InvoiceParties } from '../../shared/domain/invoices/pdf';
import type { InvoiceDto } from '../../shared/domain/invoices/schema';

/**
 * An invoice whose parties and lines are written in Greek, Cyrillic and Chinese: what the PDF renderer
 * must draw with the Unicode fonts the machine and the production image carry.
 */
export const invoice: InvoiceDto = {
  id: '8a4f1c52-2f0e-4d4c-9a51-6c1d1d2b7e01',
  invoiceNumber: 'INV-0042',
  status: 'unpaid',
  customer: { id: '0b8c2d7e-5a41-4f3e-8d0c-3b9a1e6f2c11', name: '王小明' },
  currency: 'EUR',
  lineItems: [
    { name: 'Σύμβουλος: Ωμέγα', quantity: 2, unit: null, price: 100, vatRate: 19, taxRate: null },
    { name: 'Перевод для Иван', quantity: 1, unit: null, price: 50, vatRate: 19, taxRate: null },
    { name: '咨询服务', quantity: 1, unit: null, price: 40, vatRate: null, taxRate: null },
  ],
  subtotal: 290,
  vat: 47.5,
  tax: 0,
  discount: 0,
  amount: 337.5,
  amountPaid: 0,
  amountCredited: 0,
  amountDue: 337.5,
  issueDate: '2026-11-27',
  dueDate: '2026-12-11',
  note: 'Спасибо, Иван · 谢谢',
  scheduledAt: null,
  sentAt: null,
  emailDelivery: false,
  paidAt: null,
  paymentReference: null,
  refundedAt: null,
  canceledAt: null,
  seriesId: null,
  viewedAt: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
};

export const parties: InvoiceParties = {
  team: {
    name: 'Ωμέγα Σύμβουλοι',
    email: 'billing@omega.example',
    countryCode: 'DE',
    invoicePaymentDetails: 'IBAN DE02 1203 0000 0000 2020 51',
    addressLine1: 'Λεωφόρος Κηφισίας 1',
    addressLine2: null,
    city: 'Αθήνα',
    zip: '10557',
    vatNumber: null,
    taxNumber: null,
    registrationNumber: null,
  },
  customer: {
    name: '王小明',
    email: 'xiaoming@example.cn',
    billingEmail: null,
    addressLine1: 'Иван Петров',
    addressLine2: 'ул. Тверская, 7',
    city: '北京市',
    state: null,
    zip: '100000',
    countryCode: 'CN',
    vatNumber: null,
    buyerReference: null,
    eInvoiceFormat: null,
  },
};

/** What a reader of the PDF must find in it, as written. */
export const NON_LATIN_NAMES = [
  '王小明',
  'Ωμέγα',
  'Иван',
  'Σύμβουλος',
  'Перевод',
  '咨询服务',
  '北京市',
  'Αθήνα',
  'ул. Тверская',
  'Спасибо, Иван · 谢谢',
];
