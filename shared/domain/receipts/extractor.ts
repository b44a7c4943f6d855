import type { LlmClient } from '../../providers/llm';
import { UNSURE, extractFromText, type ReceiptFields } from './extract';
import { LLM_RECEIPT_SCHEMA, LLM_RECEIPT_SYSTEM, fieldsFromLlm } from './llm-fields';
import { HEIC_TYPES, heicToPng } from './heic';
import type { Ocr } from './ocr';
import { pdfText } from './pdf-text';

/** How the fields were read: PDF text, OCR of an image, or the configured LLM. */
export type ExtractionMethod = 'pdf_text' | 'ocr' | 'llm';

export interface Extraction {
  fields: ReceiptFields;
  method: ExtractionMethod;
  /** The document's text as read (PDF text or OCR), for search; '' when none could be read. */
  text: string;
}

/** A file that cannot be read at all (a broken PDF, an image that does not decode, an unsupported type): retrying will not change that. */
export class UnreadableDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableDocument';
  }
}

const OCR_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/tiff']);
/** What vision models accept as an image part (HEIC is converted to PNG first). */
const LLM_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

export interface ReceiptExtractor {
  extract(bytes: Buffer, mimeType: string): Promise<Extraction>;
}

/**
 * Reads a receipt: the text of a PDF, or OCR of a photo, parsed by rules; or, when an LLM is
 * configured, the model reads the text (and the image itself) instead. The LLM is never required:
 * when it fails the rules read the same text, and the caller is told why through `onLlmFailure`.
 */
export function createReceiptExtractor(deps: { ocr: Ocr; llm?: LlmClient; onLlmFailure?: (err: Error) => void }): ReceiptExtractor {
  return {
    async extract(original, originalType) {
      const converted = HEIC_TYPES.has(originalType) ? await heicToPng(original) : null;
      if (HEIC_TYPES.has(originalType) && !converted) throw new UnreadableDocumentError('HEIC image could not be decoded');
      const [bytes, mimeType] = converted ? [converted, 'image/png'] : [original, originalType];
      let text: string;
      let method: ExtractionMethod;
      if (mimeType === 'application/pdf') {
        method = 'pdf_text';
        try {
          text = await pdfText(bytes);
        } catch (err) {
          throw new UnreadableDocumentError(`unreadable PDF: ${(err as Error).message}`);
        }
      } else if (OCR_TYPES.has(mimeType)) {
        method = 'ocr';
        const read = await deps.ocr.text(bytes);
        if (read === null) throw new UnreadableDocumentError(`${mimeType} image could not be decoded`);
        text = read;
      } else {
        throw new UnreadableDocumentError(`cannot read ${mimeType}`);
      }
      const image = LLM_IMAGE_TYPES.has(mimeType) ? { bytes, mimeType } : undefined;
      if (deps.llm && (text || image)) {
        try {
          const answer = await deps.llm.completeJson({
            system: LLM_RECEIPT_SYSTEM,
            text: text
              ? `Text found on the receipt (words the OCR was unsure of are marked ${UNSURE}):\n${text}`
              : 'No text could be read; read the image.',
            image,
            schemaName: 'receipt',
            schema: LLM_RECEIPT_SCHEMA,
          });
          return { fields: fieldsFromLlm(answer), method: 'llm', text };
        } catch (err) {
          deps.onLlmFailure?.(err as Error);
        }
      }
      return { fields: extractFromText(text), method, text };
    },
  };
}
