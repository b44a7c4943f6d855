import { ApplicationFailure, log } from '@temporalio/activity';
import { classifyDocument } from '../../shared/domain/documents/classify';
import { issuedByTeam } from '../../shared/domain/documents/own-invoice';
import { eInvoiceText, looksLikeEInvoiceXml, readEInvoice } from '../../shared/domain/e-invoices/incoming/read';
import type { DocumentKind } from '../../shared/domain/documents/kinds';
import {
  completeDocumentProcessing,
  documentToProcess,
  markDocumentProcessing,
  markDocumentUnreadable,
  storeDocumentText,
  type DocumentRef,
} from '../../shared/domain/documents/processing';
import { UnreadableDocumentError } from '../../shared/domain/receipts/extractor';
import { isReceiptFile } from '../../shared/domain/receipts/file-types';
import type { ExtractedDocument } from '../../shared/temporal/document-processing/contract';
import type { ActivityDeps } from '../deps';

const TEXT_TYPES = new Set(['text/plain', 'text/csv', 'application/xml']);

/** What the receipt matching needs of a document that goes on to the inbox. */
export interface ClassifiedDocument {
  kind: DocumentKind;
  storageKey: string;
  mimeType: string;
  name: string;
  /** An invoice the team issued itself: a sale, which has no receipt to match (see own-invoice.ts). */
  issuedByTeam: boolean;
}

export function documentActivities({ db, storage, receipts }: ActivityDeps) {
  const find = async (ref: DocumentRef) => {
    const doc = await documentToProcess(db, ref);
    // Deleted while it waited: nothing left to process, and retrying will not bring it back.
    if (!doc) throw ApplicationFailure.nonRetryable(`document ${ref.documentId} not found`, 'DocumentNotFound');
    return doc;
  };

  /**
   * A supplier's e-invoice, found before any OCR: its words (a refused one's reason), which classify
   * it as an invoice so it goes on to the inbox, where it is read again and recorded or failed.
   * Null for any other file.
   */
  async function eInvoiceIn(doc: { storageKey: string; mimeType: string }): Promise<string | null> {
    if (doc.mimeType !== 'application/pdf' && doc.mimeType !== 'application/xml') return null;
    const bytes = await storage.get(doc.storageKey);
    if (doc.mimeType === 'application/xml' && !looksLikeEInvoiceXml(bytes.subarray(0, 4096).toString('utf8'))) return null;
    const read = await readEInvoice(bytes, doc.mimeType);
    if (read.kind === 'read') return eInvoiceText(read.invoice);
    if (read.kind === 'refused') return `E-invoice refused: ${read.reason}`;
    return null;
  }

  return {
    /**
     * Reads the document's text (a supplier's e-invoice structurally, before any OCR; else the PDF
     * text layer, OCR of images, the file itself for text) and keeps
     * it for search. A file that cannot be read is marked failed and the team told, once: a retry
     * after the notice finds the document failed already and says nothing again.
     */
    async extractDocument(ref: DocumentRef): Promise<ExtractedDocument> {
      const doc = await find(ref);
      if (doc.processingStatus === 'failed') return { readable: false, reason: doc.processingError ?? 'unreadable' };
      await markDocumentProcessing(db, ref);
      let text = '';
      try {
        const eInvoice = await eInvoiceIn(doc);
        if (eInvoice !== null) {
          text = eInvoice;
        } else if (TEXT_TYPES.has(doc.mimeType)) {
          text = (await storage.get(doc.storageKey)).toString('utf8');
        } else if (isReceiptFile(doc.mimeType) || doc.mimeType === 'image/tiff') {
          text = (await receipts.extract(await storage.get(doc.storageKey), doc.mimeType)).text;
        }
        // Office files and GIFs keep no text here: they are stored, named and tagged, and classified by name.
      } catch (err) {
        if (!(err instanceof UnreadableDocumentError)) throw err;
        log.warn('document could not be read', { documentId: doc.id, reason: err.message });
        await markDocumentUnreadable(db, ref, doc, err.message);
        return { readable: false, reason: err.message };
      }
      return { readable: true, chars: await storeDocumentText(db, ref, text) };
    },

    /** Decides what the document is from its text and name, and marks processing complete. */
    async classifyStoredDocument(ref: DocumentRef): Promise<ClassifiedDocument> {
      const doc = await find(ref);
      const kind = classifyDocument(doc.content ?? '', doc.name);
      const ownInvoice = kind === 'invoice' && (await issuedByTeam(db, ref.teamId, doc.content ?? ''));
      await completeDocumentProcessing(db, ref, doc, kind);
      return { kind, storageKey: doc.storageKey, mimeType: doc.mimeType, name: doc.name, issuedByTeam: ownInvoice };
    },
  };
}

export type DocumentActivities = ReturnType<typeof documentActivities>;
