import type { Db } from '../../db/knex';
import { Document, InboxItem } from '../../db/models';
import { notFound } from '../../errors';
import { StorageNotFoundError, type Storage } from '../../providers/storage';

export interface StoredFile {
  bytes: Buffer;
  mimeType: string;
  name: string;
}

/** The original file behind an inbox item; 404 when the item has none or storage has lost it. */
export async function getInboxFile(db: Db, storage: Storage, teamId: string, id: string): Promise<StoredFile> {
  const item = await InboxItem.query(db).findOne({ teamId, id }).whereNot('status', 'deleted');
  if (!item) throw notFound(`Inbox item ${id} not found`);
  const doc = item.documentId ? await Document.query(db).findOne({ teamId, id: item.documentId }) : undefined;
  // Every item arrives with its document; none left means someone deleted it (its key sets null).
  if (!doc) throw notFound(`The file of inbox item ${id} is gone: its document was deleted`);
  const bytes = await storage.get(doc.storageKey).catch((err: unknown) => {
    if (err instanceof StorageNotFoundError) throw notFound(`The file of inbox item ${id} is missing from storage`);
    throw err;
  });
  return { bytes, mimeType: doc.mimeType, name: doc.name };
}
