/** What receipt reading can read: PDFs (text layer, or a Factur-X's XML), photos (OCR), and e-invoices as XML. */
export const RECEIPT_MIME_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'application/pdf',
  'application/xml',
  'text/xml',
];

export const isReceiptFile = (mimeType: string) => RECEIPT_MIME_TYPES.includes(mimeType);
