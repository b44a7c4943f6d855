/** What receipt reading can read: PDFs (text layer) and photos (OCR). */
export const RECEIPT_MIME_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'];

export const isReceiptFile = (mimeType: string) => RECEIPT_MIME_TYPES.includes(mimeType);
