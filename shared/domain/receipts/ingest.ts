import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex';
import { Document, InboxItem } from '../../db/models';
import type { Storage } from '../../providers/storage';
import type { IngestInput } from '../../temporal/receipt-ingestion/contract';
import { storableContent, withoutNul } from '../documents/processing';
import { storeDocumentOnce } from '../documents/upload';
import type { ReceiptFields } from './extract';
import type { Extraction } from './extractor';

const EXT: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

/**
 * A received receipt: its file stored once per team (same bytes, same document) and its inbox item
 * recorded, one per source message (a message delivered again points its item at the document).
 */
export async function recordReceipt(
  { db, storage }: { db: Db; storage: Storage },
  input: IngestInput,
  { bytes, mimeType }: { bytes: Buffer; mimeType: string },
): Promise<{ inboxItemId: string; documentId: string; duplicate: boolean }> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const storageKey = `${input.teamId}/${sha256}.${EXT[mimeType] ?? 'bin'}`;
  const { doc, duplicate } = await storeDocumentOnce(
    db,
    {
      teamId: input.teamId,
      name: input.fileName ?? `receipt.${EXT[mimeType] ?? 'bin'}`,
      storageKey,
      mimeType,
      size: bytes.length,
      sha256,
      processingStatus: 'processing',
    },
    () => storage.put(storageKey, bytes),
  );
  const item = await InboxItem.query(db)
    .insert({
      teamId: input.teamId,
      documentId: doc.id,
      source: input.source,
      reference: input.reference,
      status: 'processing',
      sender: input.sender ?? null,
      note: input.caption?.slice(0, 1000) ?? null,
      fileName: doc.name,
      mimeType,
      size: bytes.length,
      workflowId: input.workflowId ?? null,
    })
    .onConflict(['teamId', 'reference'])
    .merge(['documentId', 'updatedAt'])
    .returning('id');
  return { inboxItemId: item.id, documentId: doc.id, duplicate };
}

/** The item and its document, which every step after recordReceipt reads; undefined when either is gone. */
export async function inboxItemWithDocument(db: Db, inboxItemId: string): Promise<{ item: InboxItem; doc: Document } | undefined> {
  const item = await InboxItem.query(db).findById(inboxItemId);
  const doc = item?.documentId ? await Document.query(db).findOne({ teamId: item.teamId, id: item.documentId }) : undefined;
  return item && doc ? { item, doc } : undefined;
}

const receiptDocument = (db: Db, item: Pick<InboxItem, 'teamId'>, documentId: string) =>
  Document.query(db).findOne({ teamId: item.teamId, id: documentId });

/** A broken file: its document is kept and listed for someone to fill in by hand. */
export async function markReceiptUnreadable(db: Db, item: Pick<InboxItem, 'teamId'>, documentId: string): Promise<void> {
  await receiptDocument(db, item, documentId).patch({ processingStatus: 'failed', updatedAt: new Date() });
}

/**
 * What was read of the receipt: its fields on the inbox item (now analyzing), its text on the
 * document for search. Returns the fields as stored.
 */
export async function recordExtraction(
  db: Db,
  item: Pick<InboxItem, 'id' | 'teamId'>,
  documentId: string,
  { fields, method, text }: Extraction,
): Promise<ReceiptFields> {
  const merchant = (fields.merchant && withoutNul(fields.merchant)) || null;
  await InboxItem.query(db).findById(item.id).patch({
    status: 'analyzing',
    displayName: merchant,
    amount: fields.amount,
    currency: fields.currency,
    date: fields.date,
    taxAmount: fields.taxAmount,
    taxRate: fields.taxRate,
    extractionMethod: method,
    updatedAt: new Date(),
  });
  await receiptDocument(db, item, documentId).patch({
    processingStatus: 'completed',
    title: merchant,
    content: storableContent(text) || null,
    updatedAt: new Date(),
  });
  return { ...fields, merchant };
}
