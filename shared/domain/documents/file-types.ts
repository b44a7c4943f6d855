/**
 * The files the document library keeps, by what their bytes are (never by their name): PDFs, photos
 * and scans, office files, and plain text or CSV. Everything else, executables first of all, is refused.
 */
export const DOCUMENT_MIME_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/gif',
  'image/tiff',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/xml',
  'text/plain',
  'text/csv',
] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];

/** How many leading bytes detection needs (file-type reads at most this much). */
export const SNIFF_BYTES = 4100;

/** Text has no magic number: the head must be valid UTF-8 without control characters other than whitespace. */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  // A multi-byte character may be cut at the end of the head: drop up to three trailing bytes before decoding.
  for (let cut = 0; cut <= 3 && cut < head.length; cut++) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      // eslint-disable-next-line no-control-regex
      return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
    } catch {
      // try a shorter head
    }
  }
  return false;
}

/**
 * The type of a file from its first bytes (SNIFF_BYTES of them), or null when it is not one the
 * library keeps. The name only tells CSV from other text, which no content can.
 */
export async function detectDocumentType(head: Buffer, fileName: string): Promise<DocumentMimeType | null> {
  // ESM-only: a dynamic import loads it from this CommonJS code (once; Node caches the module).
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  if (found) {
    const mime = found.mime === 'image/heic-sequence' ? 'image/heic' : found.mime;
    return (DOCUMENT_MIME_TYPES as readonly string[]).includes(mime) ? (mime as DocumentMimeType) : null;
  }
  if (!looksLikeText(head)) return null;
  if (/\.csv$/i.test(fileName)) return 'text/csv';
  return head.toString('utf8', 0, 64).trimStart().startsWith('<?xml') ? 'application/xml' : 'text/plain';
}

const EXTENSIONS: Record<DocumentMimeType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/xml': 'xml',
  'text/plain': 'txt',
  'text/csv': 'csv',
};

export const extensionOf = (mime: DocumentMimeType) => EXTENSIONS[mime];
