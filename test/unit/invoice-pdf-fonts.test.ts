import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useFontDir } from '../../shared/domain/invoices/fonts';
import { renderInvoicePdf, type InvoiceParties } from '../../shared/domain/invoices/pdf';
import type { InvoiceDto } from '../../shared/domain/invoices/schema';
import { pdfText } from '../../shared/domain/receipts/pdf-text';

/**
 * Customers are named in every script. The machine (CI, the production image) carries Debian's
 * fonts-dejavu-core and fonts-noto-cjk; the PDF must then draw Greek, Cyrillic and Chinese names,
 * and pdf.js must read them back as the same text.
 */
const DEJAVU = '/usr/share/fonts/truetype/dejavu';

const invoice: InvoiceDto = {
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

const parties: InvoiceParties = {
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

const render = async () => {
  const bytes = await renderInvoicePdf({ invoice, ...parties });
  // Font names stay readable in the file: pdfkit writes font dictionaries uncompressed.
  const fonts = [...bytes.toString('latin1').matchAll(/\/BaseFont \/(?:[A-Z]{6}\+)?([\w-]+)/g)].map((m) => m[1]);
  return { text: (await pdfText(bytes)).replace(/\s+/g, ' '), fonts: [...new Set(fonts)] };
};

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-fonts-'));
  tempDirs.push(dir);
  return dir;
};

afterEach(() => useFontDir(undefined));
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('invoice PDF fonts', () => {
  it('writes Greek, Cyrillic and Chinese names that read back as written', async () => {
    const { text, fonts } = await render();
    for (const name of [
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
    ])
      expect(text).toContain(name);
    expect(text).toContain('INV-0042');
    // Each string in the family that draws it: DejaVu for Greek and Cyrillic, Noto Sans CJK for Chinese.
    expect(fonts).toEqual(expect.arrayContaining(['DejaVuSans', 'DejaVuSans-Bold', 'NotoSansCJKsc-Regular', 'NotoSansCJKsc-Bold']));
    expect(fonts).not.toContain('Helvetica');
  });

  it('takes the fonts of PDF_FONT_DIR before Debian’s', async () => {
    const dir = tempDir();
    // DejaVu Serif under DejaVu Sans's names: which one the PDF embeds shows which directory won.
    copyFileSync(path.join(DEJAVU, 'DejaVuSerif.ttf'), path.join(dir, 'DejaVuSans.ttf'));
    copyFileSync(path.join(DEJAVU, 'DejaVuSerif-Bold.ttf'), path.join(dir, 'DejaVuSans-Bold.ttf'));
    useFontDir(dir);
    const { text, fonts } = await render();
    expect(fonts).toEqual(expect.arrayContaining(['DejaVuSerif', 'DejaVuSerif-Bold']));
    expect(fonts).not.toContain('DejaVuSans');
    expect(text).toContain('Иван');
    expect(text).toContain('王小明'); // from Debian's Noto, which PDF_FONT_DIR does not hold
  });

  it('falls back to the built-in Helvetica where no Unicode font is installed', async () => {
    useFontDir(tempDir(), { alone: true });
    const { text, fonts } = await render();
    expect(fonts.sort()).toEqual(['Helvetica', 'Helvetica-Bold']);
    expect(text).toContain('INV-0042');
    expect(text).toContain('IBAN DE02 1203 0000 0000 2020 51');
  });
});
