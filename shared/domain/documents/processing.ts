import type { Db } from '../../db/knex';
import { Document } from '../../db/models';
import { notify } from '../notifications/service';
import { emitEvent } from '../webhook-endpoints/events';
import type { DocumentKind } from './kinds';

/** Enough to search and classify any document (a receipt or invoice included); a 300-page PDF's text is not worth keeping whole. */
const MAX_CONTENT_CHARS = 100_000;

/** pdf.js keeps NUL for glyphs without a Unicode mapping; PostgreSQL text refuses it. */
export const withoutNul = (text: string) => text.replaceAll('\u0000', '');

/** A document's text as it is kept for search: storable, and no longer than MAX_CONTENT_CHARS. */
export const storableContent = (text: string) => withoutNul(text).slice(0, MAX_CONTENT_CHARS);

export interface DocumentRef {
  teamId: string;
  documentId: string;
}

/** The document to process; undefined once it was deleted. */
export async function documentToProcess(db: Db, { teamId, documentId }: DocumentRef): Promise<Document | undefined> {
  return Document.query(db).findOne({ teamId, id: documentId }).whereNull('deletedAt');
}

const patch = (db: Db, ref: DocumentRef, fields: Partial<Document>) =>
  Document.query(db)
    .where({ teamId: ref.teamId, id: ref.documentId })
    .patch({ ...fields, updatedAt: new Date() });

/** Its file is being read. */
export async function markDocumentProcessing(db: Db, ref: DocumentRef): Promise<void> {
  await patch(db, ref, { processingStatus: 'processing' });
}

/** The file's text, kept for search (none: null); returns how many characters were kept. */
export async function storeDocumentText(db: Db, ref: DocumentRef, text: string): Promise<number> {
  const content = storableContent(text);
  await patch(db, ref, { content: content || null });
  return content.length;
}

/**
 * The file cannot be read: the document is marked failed and the team told, in one transaction, so
 * a retry after the notice finds the document failed already and says nothing again.
 */
export async function markDocumentUnreadable(db: Db, ref: DocumentRef, doc: Pick<Document, 'id' | 'name'>, reason: string): Promise<void> {
  await db.transaction(async (trx) => {
    await patch(trx, ref, { processingStatus: 'failed', processingError: reason.slice(0, 500), processedAt: new Date() });
    await notify(trx, {
      teamId: ref.teamId,
      type: 'document_unreadable',
      metadata: { documentId: doc.id, name: doc.name, reason: reason.slice(0, 200) },
    });
  });
}

/** What the document is, and its processing complete; `document.processed` goes out with the first completion. */
export async function completeDocumentProcessing(
  db: Db,
  ref: DocumentRef,
  doc: Pick<Document, 'id' | 'name' | 'processingStatus'>,
  kind: DocumentKind,
): Promise<void> {
  await db.transaction(async (trx) => {
    await patch(trx, ref, { kind, processingStatus: 'completed', processingError: null, processedAt: new Date() });
    // Once per document: a retry after the row was completed (its completion lost with a worker) says nothing again.
    if (doc.processingStatus !== 'completed') {
      await emitEvent(trx, ref.teamId, 'document.processed', { documentId: doc.id, name: doc.name, kind });
    }
  });
}
