import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { Document, DocumentTag, Tag } from '../../db/models';
import { outsideTheWall } from '../../db/team-wall';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { badRequest, notFound } from '../../errors';
import { StorageNotFoundError, type Storage } from '../../providers/storage';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { containsPattern } from '../common/query';
import type { DocumentDto, listDocumentsQuery, updateDocumentBody } from './schema';

interface DocumentRow extends CursorRow {
  id: string;
  name: string;
  title: string | null;
  mimeType: string;
  size: string | number;
  sha256: string;
  kind: DocumentDto['kind'];
  processingStatus: DocumentDto['processingStatus'];
  processingError: string | null;
  processedAt: Date | null;
  tags: DocumentDto['tags'];
  inboxItemId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A team's live documents with their tags and inbox item, in one round trip. */
function selectDocuments(db: Db, teamId: string) {
  return db('documents as d')
    .where('d.team_id', teamId)
    .whereNull('d.deleted_at')
    .select<DocumentRow[]>(
      'd.id',
      'd.name',
      'd.title',
      'd.mime_type',
      'd.size',
      'd.sha256',
      'd.kind',
      'd.processing_status',
      'd.processing_error',
      'd.processed_at',
      'd.created_at',
      'd.updated_at',
      db.raw('d.created_at::text as cursor_created_at'),
      db.raw(`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
                          from document_tags dt join tags g on g.id = dt.tag_id
                         where dt.document_id = d.id), '[]') as tags`),
      db.raw(`(select i.id from inbox_items i where i.document_id = d.id and i.team_id = d.team_id and i.status <> 'deleted'
                order by i.created_at limit 1) as inbox_item_id`),
    );
}

const toDto = (r: DocumentRow): DocumentDto => ({
  id: r.id,
  name: r.name,
  title: r.title,
  mimeType: r.mimeType,
  size: Number(r.size),
  sha256: r.sha256.trim(),
  kind: r.kind,
  processingStatus: r.processingStatus,
  processingError: r.processingError,
  processedAt: toIsoOrNull(r.processedAt),
  tags: r.tags,
  inboxItemId: r.inboxItemId,
  createdAt: toIso(r.createdAt),
  updatedAt: toIso(r.updatedAt),
});

/**
 * Runs outside the team wall, as search and the transaction list do (shared/db/team-wall.ts): under
 * row-level security `@@` and the trigram `ILIKE` are checked only after the policy, so their GIN
 * indexes go unused and `q` read every document of the team. The list names the team on `documents`
 * and in each of `q`'s candidate subqueries, and reaches tags and inbox items through the document.
 */
export async function listDocuments(db: Db, teamId: string, query: z.infer<typeof listDocumentsQuery>): Promise<Page<DocumentDto>> {
  return outsideTheWall(() => newestFirstPage(listQuery(db, teamId, query), 'd', query, toDto));
}

function listQuery(db: Db, teamId: string, query: z.infer<typeof listDocumentsQuery>) {
  const q = selectDocuments(db, teamId);
  if (query.kinds) q.whereIn('d.kind', query.kinds);
  if (query.mimeTypes) q.whereIn('d.mime_type', query.mimeTypes);
  if (query.statuses) q.whereIn('d.processing_status', query.statuses);
  if (query.from) q.where('d.created_at', '>=', `${query.from}T00:00:00Z`);
  if (query.to) q.whereRaw(`d.created_at < (?::date + 1)::timestamptz`, [query.to]);
  if (query.tags) q.whereExists(db('document_tags as ft').whereRaw('ft.document_id = d.id').whereIn('ft.tag_id', query.tags));
  if (query.q) {
    const text = query.q;
    // One candidate subquery per way of matching, each served by its own index (an OR of them with a
    // correlated tag lookup can use none): the words column GET /search reads (migration 0062, the
    // words of name, title and text), name trigrams, and tag names.
    const mine = () => db('documents as c').where('c.team_id', teamId).select('c.id');
    q.whereIn(
      'd.id',
      mine()
        .whereRaw(`c.search_vector @@ websearch_to_tsquery('simple', ?)`, [text])
        .union(mine().whereILike('c.name', containsPattern(text)))
        .union(
          db('document_tags as qt')
            .join('tags as qg', 'qg.id', 'qt.tag_id')
            .where({ 'qt.team_id': teamId, 'qg.team_id': teamId })
            .whereILike('qg.name', containsPattern(text))
            .select('qt.document_id'),
        ),
    );
  }
  return q;
}

export async function getDocument(db: Db, teamId: string, id: string): Promise<DocumentDto> {
  const row = (await selectDocuments(db, teamId).where('d.id', id)).at(0);
  if (!row) throw notFound(`Document ${id} not found`);
  return toDto(row);
}

/** 400 naming the ids that are not tags of the team. */
export async function assertTeamTags(db: Db, teamId: string, tags: readonly string[] | undefined): Promise<void> {
  if (!tags?.length) return;
  const found = new Set((await Tag.query(db).where({ teamId }).whereIn('id', tags).select('id')).map((t) => t.id));
  const missing = [...new Set(tags)].filter((t) => !found.has(t));
  if (missing.length) throw badRequest('Unknown tags', [{ field: 'tags', message: `no such tags in your team: ${missing.join(', ')}` }]);
}

/** Puts tags on a document (keeping the ones it has); `replace` drops the others first. */
export async function tagDocument(db: Knex, teamId: string, documentId: string, tags: readonly string[], replace: boolean): Promise<void> {
  if (replace) await DocumentTag.query(db).where({ teamId, documentId }).delete();
  const unique = [...new Set(tags)];
  if (unique.length)
    await DocumentTag.query(db)
      .insert(unique.map((tagId) => ({ teamId, documentId, tagId })))
      .onConflict(['documentId', 'tagId'])
      .ignore();
}

export async function updateDocument(db: Db, teamId: string, id: string, body: z.infer<typeof updateDocumentBody>): Promise<DocumentDto> {
  await assertTeamTags(db, teamId, body.tags);
  await db.transaction(async (trx) => {
    const updated = await Document.query(trx)
      .where({ teamId, id })
      .whereNull('deletedAt')
      .patch({ ...(body.name !== undefined && { name: body.name }), updatedAt: new Date() });
    if (!updated) throw notFound(`Document ${id} not found`);
    if (body.tags) await tagDocument(trx, teamId, id, body.tags, true);
  });
  return getDocument(db, teamId, id);
}

/**
 * Deletes the row and then the file. An inbox item or a transaction attachment that pointed at it
 * keeps working without its file (the foreign keys set null; the inbox says the file is gone). The
 * file goes last: a failure there leaves an orphan file, never a row without its file.
 */
export async function deleteDocument(db: Db, storage: Storage, teamId: string, id: string): Promise<void> {
  const doc = await Document.query(db).findOne({ teamId, id }).whereNull('deletedAt');
  if (!doc) throw notFound(`Document ${id} not found`);
  await Document.query(db).where({ teamId, id }).delete();
  // Soft-deleted rows from before may share the key (same team, same bytes): keep the file for them.
  const shared = await Document.query(db).where({ storageKey: doc.storageKey }).resultSize();
  if (!shared) await storage.remove(doc.storageKey);
}

export interface DocumentFile {
  stream: Readable;
  size: number;
  mimeType: string;
  name: string;
}

/** The stored bytes of a document, streamed; 404 when there is no such document or storage lost it. */
export async function openDocumentFile(db: Db, storage: Storage, teamId: string, id: string): Promise<DocumentFile> {
  const doc = await Document.query(db).findOne({ teamId, id }).whereNull('deletedAt');
  if (!doc) throw notFound(`Document ${id} not found`);
  try {
    const { stream, size } = await storage.open(doc.storageKey);
    return { stream, size, mimeType: doc.mimeType, name: doc.name };
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw notFound(`The file of document ${id} is missing from storage`);
    throw err;
  }
}
