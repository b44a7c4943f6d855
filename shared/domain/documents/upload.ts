import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { Document } from '../../db/models';
import { AppError } from '../../errors';
import type { Storage } from '../../providers/storage';
import type { TemporalGateway } from '../../temporal/client';
import { startDocumentProcessing } from '../../temporal/document-processing/calls';
import { detectDocumentType, extensionOf, type DocumentMimeType } from './file-types';
import type { UploadedDocumentDto } from './schema';
import { assertTeamTags, getDocument, tagDocument } from './service';

/** A received file, already on local disk (spooled by the gateway), with its hash and first bytes. */
export interface ReceivedFile {
  path: string;
  fileName: string;
  size: number;
  sha256: string;
  head: Buffer;
}

export interface UploadDeps {
  db: Db;
  storage: Storage;
  temporal: TemporalGateway;
  /** How long a receipt's match suggestion waits for a decision (RECEIPT_DECISION_TIMEOUT). */
  decisionTimeoutMs: number;
}

const unsupportedType = (names: string[]) =>
  new AppError(
    415,
    'Unsupported Media Type',
    `Not a type of document we keep (by its content, whatever its name): ${names.join(', ')}. Upload PDFs, images, office files, or plain text and CSV.`,
  );

/**
 * Stores uploaded files as the team's documents and starts processing each new one. Every file is
 * checked first, so a request with one refused file stores none. The same bytes again (by this
 * upload or an earlier one, or a receipt) are the document the team has, returned as a duplicate;
 * a document still waiting is started again, which a retried request needs and costs nothing.
 */
export async function uploadDocuments(
  deps: UploadDeps,
  who: { teamId: string; userId: string },
  files: readonly ReceivedFile[],
  tags: readonly string[] = [],
): Promise<UploadedDocumentDto[]> {
  const { db, storage, temporal } = deps;
  const types = await Promise.all(files.map((f) => detectDocumentType(f.head, f.fileName)));
  const refused = files.filter((_, i) => !types[i]).map((f) => f.fileName);
  if (refused.length) throw unsupportedType(refused);
  await assertTeamTags(db, who.teamId, tags);

  const results: UploadedDocumentDto[] = [];
  for (const [i, file] of files.entries()) {
    const mimeType = types[i] as DocumentMimeType;
    const storageKey = `${who.teamId}/${file.sha256}.${extensionOf(mimeType)}`;
    const { doc, duplicate } = await storeDocumentOnce(
      db,
      {
        teamId: who.teamId,
        name: file.fileName,
        storageKey,
        mimeType,
        size: file.size,
        sha256: file.sha256,
        processingStatus: 'pending',
        createdBy: who.userId,
      },
      () => storage.putFile(storageKey, file.path, file.size),
    );
    if (tags.length) await tagDocument(db, who.teamId, doc.id, tags, false);
    if (doc.processingStatus === 'pending')
      await startDocumentProcessing(
        temporal,
        { teamId: who.teamId, documentId: doc.id, decisionTimeoutMs: deps.decisionTimeoutMs },
        { name: doc.name },
      );
    results.push({ ...(await getDocument(db, who.teamId, doc.id)), duplicate });
  }
  return results;
}

/**
 * Documents an upload stored but whose processing it did not get to start: the API died, or Temporal
 * was unreachable, between the row's insert and the start. Older than `graceMs`, so an upload still on
 * its way to the start is left to it. Newest first: a document whose run was terminated before it read
 * anything stays pending (starting it again finds that run), and must not keep newer ones waiting.
 */
export async function documentsLeftPending(
  db: Db,
  opts: { graceMs: number; limit: number },
): Promise<{ teamId: string; id: string; name: string }[]> {
  return Document.query(db)
    .where('processingStatus', 'pending')
    .whereNull('deletedAt')
    .whereRaw(`created_at < now() - ? * interval '1 millisecond'`, [opts.graceMs])
    .orderBy('createdAt', 'desc')
    .limit(opts.limit)
    .select('teamId', 'id', 'name');
}

/** The columns a document's row starts with (an upload's also says who sent it). */
type NewDocumentColumn = 'teamId' | 'name' | 'storageKey' | 'mimeType' | 'size' | 'sha256' | 'processingStatus';
export type NewDocument = Pick<ModelObject<Document>, NewDocumentColumn> & Partial<Pick<ModelObject<Document>, 'createdBy'>>;

/**
 * The team's live document with these bytes (a duplicate), or a new one: its file stored by `put`
 * under its key, then its row inserted. Uploads and received receipts both come here.
 */
export async function storeDocumentOnce(
  db: Db,
  file: NewDocument,
  put: () => Promise<void>,
): Promise<{ doc: ModelObject<Document>; duplicate: boolean }> {
  const live = () => Document.query(db).findOne({ teamId: file.teamId, sha256: file.sha256 }).whereNull('deletedAt');
  const existing = await live();
  if (existing) return { doc: existing, duplicate: true };
  // Same bytes, same key: storing again is harmless, and a concurrent delivery of this file loses the
  // insert below (unique per team and content) and takes the winner's row.
  await put();
  // Knex, not the model: an insert that the database may ignore answers with no row, which a model cannot say.
  const inserted = await db<ModelObject<Document>>('documents').insert(file).onConflict().ignore().returning('*');
  const doc = inserted.at(0) ?? (await live());
  if (!doc) throw new Error(`document ${file.sha256} neither inserted nor found`);
  return { doc, duplicate: inserted.length === 0 };
}
