// The English model ships in an npm package, so OCR runs offline: nothing is downloaded at run time.
import eng from '@tesseract.js-data/eng';
import { createWorker, type Worker } from 'tesseract.js';
import { UNSURE } from './extract';

/** Tesseract's per-word confidence (0–100) below which a word is not trusted. */
export const MIN_WORD_CONFIDENCE = 60;

interface OcrWord {
  text: string;
  confidence: number;
}
interface OcrBlock {
  paragraphs: Array<{ lines: Array<{ words: OcrWord[] }> }>;
}

/** The recognised text, one line per text line, with every low-confidence word replaced by UNSURE. */
export function trustedText(blocks: OcrBlock[], minConfidence = MIN_WORD_CONFIDENCE): string {
  return blocks
    .flatMap((b) => b.paragraphs.flatMap((p) => p.lines))
    .map((line) => line.words.map((w) => (w.confidence >= minConfidence ? w.text : UNSURE)).join(' '))
    .join('\n');
}

export interface Ocr {
  /** Text of a JPEG, PNG, WebP, BMP or TIFF image ('' when it shows none); null when the image cannot be decoded. */
  text(image: Buffer): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * One tesseract.js worker per process, started on first use (about a second: it loads the WASM core
 * and the language data) and reused; the worker queues concurrent jobs itself.
 */
export function createOcr(opts: { minWordConfidence?: number } = {}): Ocr {
  let worker: Promise<Worker> | null = null;
  const start = () =>
    (worker ??= launch().catch((err: unknown) => {
      worker = null; // the next receipt tries again instead of failing on a dead promise
      throw err;
    }));
  const launch = () =>
    createWorker(eng.code, 1, {
      langPath: eng.langPath,
      gzip: eng.gzip,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job from its message listener, killing the process.
      errorHandler: () => undefined,
    });

  return {
    async text(image) {
      const w = await start();
      try {
        const { data } = await w.recognize(image, {}, { blocks: true, text: false });
        return trustedText(data.blocks ?? [], opts.minWordConfidence);
      } catch (err) {
        // An undecodable image (HEIC, a truncated file) is not worth retrying: nothing readable in it.
        if (/read image|no pix|unknown format/i.test(messageOf(err))) return null;
        throw err;
      }
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await (await w).terminate();
    },
  };
}

/** tesseract.js rejects with an Error or with the bare message its worker sent. */
function messageOf(err: unknown): string {
  const message = typeof err === 'object' && err !== null ? (err as { message?: unknown }).message : undefined;
  return String(message ?? err);
}
