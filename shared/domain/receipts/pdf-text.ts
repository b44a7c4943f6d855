import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist';

/**
 * pdf.js's display layer polyfills DOMMatrix and Path2D from the optional `@napi-rs/canvas` package when it
 * loads, and warns (with a require stack) when it is absent. We only read text, which needs neither:
 * these stand-ins silence the warning at its source and fail loudly if anything ever draws.
 */
function standInsForRendering() {
  const unavailable = (what: string) =>
    function notAvailable(): never {
      throw new Error(`${what} is not available: PDFs are read for text here, never rendered`);
    };
  const g = globalThis as Record<string, unknown>;
  g.DOMMatrix ??= unavailable('DOMMatrix');
  g.Path2D ??= unavailable('Path2D');
}
standInsForRendering();

// pdf.js is ESM-only: loaded once, on first use, after the stand-ins above. Its legacy build is the
// one for Node (no browser globals) and reads compressed PDFs.
let pdfjsLoaded: Promise<typeof import('pdfjs-dist')> | undefined;
const loadPdfjs = () => (pdfjsLoaded ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
const STANDARD_FONTS = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;

/** A PDF opened for reading (text, attachments, metadata); the caller ends it with `loadingTask.destroy()`. */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  return pdfjs.getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: it gets a copy.
    data: new Uint8Array(bytes),
    disableFontFace: true,
    standardFontDataUrl: STANDARD_FONTS,
    verbosity: 0,
  }).promise;
}

/** The text of a PDF, one line per text line, pages in order. No OCR: a scanned PDF yields little. */
export async function pdfText(bytes: Buffer, maxPages = 5): Promise<string> {
  const doc = await openPdf(bytes);
  const lines: string[] = [];
  try {
    for (let p = 1; p <= Math.min(doc.numPages, maxPages); p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items as Array<{ str: string; hasEOL: boolean }>) {
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      if (line) lines.push(line);
    }
  } finally {
    await doc.loadingTask.destroy();
  }
  return lines.join('\n');
}

/**
 * The files embedded in a PDF (its /EmbeddedFiles), by name: how Factur-X and ZUGFeRD carry their
 * XML. Read without rendering anything; a PDF pdf.js cannot open throws.
 */
export async function pdfEmbeddedFiles(bytes: Buffer): Promise<Map<string, Buffer>> {
  const doc = await openPdf(bytes);
  try {
    const files = new Map<string, Buffer>();
    // pdf.js may leave an attachment's content to be fetched on demand.
    for (const [id, attachment] of (await doc.getAttachments()) ?? []) {
      const content = attachment.content ?? (await doc.getAttachmentContent(id));
      if (content) files.set(attachment.filename, Buffer.from(content));
    }
    return files;
  } finally {
    await doc.loadingTask.destroy();
  }
}
