import path from 'node:path';

/**
 * pdf.js's display layer polyfills DOMMatrix and Path2D from the optional `canvas` package when it
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

// pdfjs-dist 3's legacy build is CommonJS (newer majors are ESM-only) and reads compressed PDFs.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- must load after the stand-ins above, which a hoisted import would not wait for
const pdfjs = require('pdfjs-dist/legacy/build/pdf.js') as typeof import('pdfjs-dist');
const STANDARD_FONTS = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;

/** The text of a PDF, one line per text line, pages in order. No OCR: a scanned PDF yields little. */
export async function pdfText(bytes: Buffer, maxPages = 5): Promise<string> {
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    standardFontDataUrl: STANDARD_FONTS,
    verbosity: 0,
  }).promise;
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
    await doc.destroy();
  }
  return lines.join('\n');
}

/**
 * The files embedded in a PDF (its /EmbeddedFiles), by name: how Factur-X and ZUGFeRD carry their
 * XML. Read without rendering anything; a PDF pdf.js cannot open throws.
 */
export async function pdfEmbeddedFiles(bytes: Buffer): Promise<Map<string, Buffer>> {
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  try {
    const found = ((await doc.getAttachments()) ?? {}) as Record<string, { filename?: string; content?: Uint8Array }>;
    const files = new Map<string, Buffer>();
    for (const [key, file] of Object.entries(found)) if (file.content) files.set(file.filename ?? key, Buffer.from(file.content));
    return files;
  } finally {
    await doc.destroy();
  }
}
