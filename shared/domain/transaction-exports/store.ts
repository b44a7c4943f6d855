import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { Document, TransactionExport } from '../../db/models';
import { isoDate } from '../../db/timestamps';
import type { Storage } from '../../providers/storage';
import type { WrittenZip } from './write';

export interface StoredExport {
  documentId: string;
  rowsWritten: number;
  receiptsWritten: number;
  receiptsMissing: number;
}

/** The export's file name in the document library: what it is and when it was asked for. */
export const exportFileName = (createdAt: Date) => `transactions-export-${isoDate(createdAt)}.zip`;

/** What a completed export stored, or null while it has stored nothing. */
export async function storedExport(db: Db, exportId: string): Promise<StoredExport | null> {
  const row = await TransactionExport.query(db).findById(exportId);
  if (!row?.documentId || row.status !== 'completed') return null;
  return {
    documentId: row.documentId,
    rowsWritten: row.rowsWritten,
    receiptsWritten: row.receiptsWritten,
    receiptsMissing: row.receiptsMissing,
  };
}

/**
 * Keeps the ZIP as a document of the team and completes the export, in one transaction: a run cut off
 * before the commit stores nothing the export points at, and its retry writes the same bytes (entries
 * are stamped with the request time) under the same content key. The document is born processed, so
 * DocumentProcessing never reads it as a receipt; the same bytes kept already are that document.
 */
export async function storeExportDocument(
  deps: { db: Db; storage: Storage },
  exp: Pick<TransactionExport, 'id' | 'teamId' | 'requestedBy' | 'createdAt'>,
  zip: WrittenZip,
): Promise<StoredExport> {
  const { db, storage } = deps;
  const storageKey = `${exp.teamId}/${zip.sha256}.zip`;
  await storage.putFile(storageKey, zip.path, zip.size);
  return db.transaction(async (trx) => {
    const live = () => Document.query(trx).findOne({ teamId: exp.teamId, sha256: zip.sha256 }).whereNull('deletedAt');
    const inserted = await trx<ModelObject<Document>>('documents')
      .insert({
        teamId: exp.teamId,
        name: exportFileName(exp.createdAt),
        storageKey,
        mimeType: 'application/zip',
        size: zip.size,
        sha256: zip.sha256,
        kind: 'other',
        processingStatus: 'completed',
        processedAt: new Date(),
        createdBy: exp.requestedBy,
      })
      .onConflict()
      .ignore()
      .returning('id');
    const documentId = inserted.at(0)?.id ?? (await live())?.id;
    if (!documentId) throw new Error(`export document ${zip.sha256} neither inserted nor found`);
    const stored = { documentId, rowsWritten: zip.rowsWritten, receiptsWritten: zip.receiptsWritten, receiptsMissing: zip.receiptsMissing };
    await TransactionExport.query(trx)
      .findById(exp.id)
      .patch({ ...stored, status: 'completed', error: null, completedAt: new Date(), updatedAt: new Date() });
    return stored;
  });
}
