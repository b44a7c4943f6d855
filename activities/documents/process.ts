import { ApplicationFailure, log } from '@temporalio/activity';
import { Document } from '../../shared/db/models';
import { classifyDocument } from '../../shared/domain/documents/classify';
import { issuedByTeam } from '../../shared/domain/documents/own-invoice';
import type { DocumentKind } from '../../shared/domain/documents/kinds';
import type { Db } from '../../shared/db/knex';
import { notify } from '../../shared/domain/notifications/service';
import { emitEvent } from '../../shared/domain/webhook-endpoints/events';
import { UnreadableDocumentError } from '../../shared/domain/receipts/extractor';
import { isReceiptFile } from '../../shared/domain/receipts/file-types';
import type { ExtractedDocument } from '../../shared/temporal/document-processing/contract';
import type { ActivityDeps } from '../deps';

/** Enough to search and classify any document; a 300-page PDF's text is not worth keeping whole. */
const MAX_CONTENT_CHARS = 100_000;
const TEXT_TYPES = new Set(['text/plain', 'text/csv', 'application/xml']);

/** pdf.js keeps NUL for glyphs without a Unicode mapping; PostgreSQL text refuses it. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

export interface DocumentRef {
  teamId: string;
  documentId: string;
}

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
  const find = async ({ teamId, documentId }: DocumentRef) => {
    const doc = await Document.query(db).findOne({ teamId, id: documentId }).whereNull('deletedAt');
    // Deleted while it waited: nothing left to process, and retrying will not bring it back.
    if (!doc) throw ApplicationFailure.nonRetryable(`document ${documentId} not found`, 'DocumentNotFound');
    return doc;
  };
  const patch = (ref: DocumentRef, fields: Partial<Document>, on: Db = db) =>
    Document.query(on)
      .where({ teamId: ref.teamId, id: ref.documentId })
      .patch({ ...fields, updatedAt: new Date() });

  return {
    /**
     * Reads the document's text (PDF text layer, OCR of images, the file itself for text) and keeps
     * it for search. A file that cannot be read is marked failed and the team told, once: a retry
     * after the notice finds the document failed already and says nothing again.
     */
    async extractDocument(ref: DocumentRef): Promise<ExtractedDocument> {
      const doc = await find(ref);
      if (doc.processingStatus === 'failed') return { readable: false, reason: doc.processingError ?? 'unreadable' };
      await patch(ref, { processingStatus: 'processing' });
      let text = '';
      try {
        if (isReceiptFile(doc.mimeType) || doc.mimeType === 'image/tiff') {
          text = (await receipts.extract(await storage.get(doc.storageKey), doc.mimeType)).text;
        } else if (TEXT_TYPES.has(doc.mimeType)) {
          text = (await storage.get(doc.storageKey)).toString('utf8');
        }
        // Office files and GIFs keep no text here: they are stored, named and tagged, and classified by name.
      } catch (err) {
        if (!(err instanceof UnreadableDocumentError)) throw err;
        log.warn('document could not be read', { documentId: doc.id, reason: err.message });
        await db.transaction(async (trx) => {
          await Document.query(trx)
            .where({ teamId: ref.teamId, id: ref.documentId })
            .patch({
              processingStatus: 'failed',
              processingError: err.message.slice(0, 500),
              processedAt: new Date(),
              updatedAt: new Date(),
            });
          await notify(trx, {
            teamId: ref.teamId,
            type: 'document_unreadable',
            metadata: { documentId: doc.id, name: doc.name, reason: err.message.slice(0, 200) },
          });
        });
        return { readable: false, reason: err.message };
      }
      const content = withoutNul(text).slice(0, MAX_CONTENT_CHARS);
      await patch(ref, { content: content || null });
      return { readable: true, chars: content.length };
    },

    /** Decides what the document is from its text and name, and marks processing complete. */
    async classifyStoredDocument(ref: DocumentRef): Promise<ClassifiedDocument> {
      const doc = await find(ref);
      const kind = classifyDocument(doc.content ?? '', doc.name);
      const ownInvoice = kind === 'invoice' && (await issuedByTeam(db, ref.teamId, doc.content ?? ''));
      await db.transaction(async (trx) => {
        await patch(ref, { kind, processingStatus: 'completed', processingError: null, processedAt: new Date() }, trx);
        // Once per document: a retry after the row was completed (its completion lost with a worker) says nothing again.
        if (doc.processingStatus !== 'completed') {
          await emitEvent(trx, ref.teamId, 'document.processed', { documentId: doc.id, name: doc.name, kind });
        }
      });
      return { kind, storageKey: doc.storageKey, mimeType: doc.mimeType, name: doc.name, issuedByTeam: ownInvoice };
    },
  };
}

export type DocumentActivities = ReturnType<typeof documentActivities>;
