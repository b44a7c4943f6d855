import { z } from 'zod';
import {
  documentIdParams,
  documentSchema,
  listDocumentsQuery,
  updateDocumentBody,
  uploadedDocumentSchema,
  uploadFields,
} from '../../shared/domain/documents/schema';
import { deleteDocument, getDocument, listDocuments, openDocumentFile, updateDocument } from '../../shared/domain/documents/service';
import { uploadDocuments } from '../../shared/domain/documents/upload';
import { SNIFF_BYTES } from '../../shared/domain/documents/file-types';
import { validationError } from '../../shared/errors';
import { UPLOAD_TOKEN_PARAM } from '../auth/upload-token';
import type { ApiDeps } from '../deps';
import { spoolMultipart } from '../http/multipart';
import { defineRoute } from './define';
import { all, file, none, one, page } from './replies';

const tag = 'Documents';
const binary = z.string().meta({ format: 'binary' });

/** The team's files: uploaded here, or received as receipts by chat and email. */
export const documentRoutes = (deps: Pick<ApiDeps, 'db' | 'storage' | 'temporal' | 'config' | 'uploads'>) => [
  defineRoute({
    method: 'post',
    path: '/documents',
    scopes: ['documents.write'],
    tag,
    summary: 'Upload documents',
    description: [
      'One or more files as `multipart/form-data` (any part name), with optional `tags` (tag ids, repeated or comma-separated). Each file is streamed to storage, never held in memory.',
      'The type is detected from the content, not the name: PDFs, images (JPEG, PNG, WebP, HEIC, GIF, TIFF), office files (DOCX, XLSX, PPTX, ODT, ODS), XML, plain text and CSV. Anything else, executables first, is 415 and nothing of the request is stored. A file over `DOCUMENT_MAX_BYTES` (25 MB unless configured) is 413, as is more than `DOCUMENT_MAX_FILES` files.',
      'The same bytes again are the document the team already has (`duplicate: true`), as for receipts. Each new document is processed in the background (`processingStatus`): its text is read, it is classified, and receipts and supplier invoices go to the inbox to be matched.',
      `Without a bearer token, a signed upload URL from the tRPC procedure \`documents.uploadUrl\` authenticates the request through its \`${UPLOAD_TOKEN_PARAM}\` query parameter.`,
    ].join('\n\n'),
    multipart: {
      description: 'The files, and optionally the tags for all of them.',
      form: z.object({
        file: z.union([binary, z.array(binary)]),
        tags: z.string().optional().meta({ description: 'Tag ids, comma-separated.' }),
      }),
    },
    credential: (ctx) => deps.uploads.callerOf(ctx),
    status: 201,
    reply: all(uploadedDocumentSchema),
    handler: async ({ principal, ctx }) => {
      const upload = await spoolMultipart(ctx, {
        maxFileBytes: deps.config.DOCUMENT_MAX_BYTES,
        maxFiles: deps.config.DOCUMENT_MAX_FILES,
        headBytes: SNIFF_BYTES,
      });
      try {
        const fields = uploadFields.safeParse({ tags: upload.fields.tags });
        if (!fields.success) throw validationError(fields.error, 'form fields');
        return await uploadDocuments(
          { db: deps.db, storage: deps.storage, temporal: deps.temporal, decisionTimeoutMs: deps.config.RECEIPT_DECISION_TIMEOUT },
          principal,
          upload.files,
          fields.data.tags,
        );
      } finally {
        await upload.discard();
      }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/documents',
    scopes: ['documents.read'],
    tag,
    summary: 'List documents',
    description:
      'Newest first, keyset-paginated. `q` searches the name, the text read from the file and the tag names; the other filters narrow by tag, kind, type, processing status and upload date.',
    query: listDocumentsQuery,
    reply: page(documentSchema),
    handler: ({ principal, query }) => listDocuments(deps.db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/documents/:id',
    scopes: ['documents.read'],
    tag,
    summary: 'Get a document',
    params: documentIdParams,
    reply: one(documentSchema),
    handler: ({ principal, params }) => getDocument(deps.db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/documents/:id/file',
    scopes: ['documents.read'],
    tag,
    summary: 'Download a document',
    description:
      'The stored bytes, streamed, with their detected `Content-Type`, `Content-Length` and a `Content-Disposition` naming the file (RFC 6266: an ASCII `filename` and a UTF-8 `filename*`).',
    params: documentIdParams,
    reply: file('The file as it was uploaded.'),
    handler: async ({ principal, params }) => {
      const found = await openDocumentFile(deps.db, deps.storage, principal.teamId, params.id);
      return { body: found.stream, mimeType: found.mimeType, fileName: found.name, size: found.size };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/documents/:id',
    scopes: ['documents.write'],
    tag,
    summary: 'Rename a document or change its tags',
    params: documentIdParams,
    body: updateDocumentBody,
    reply: one(documentSchema),
    handler: ({ principal, params, body }) => updateDocument(deps.db, principal.teamId, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/documents/:id',
    scopes: ['documents.write'],
    tag,
    summary: 'Delete a document',
    description:
      'Removes the document and its file. An inbox item or a transaction attachment that held it stays, without its file: downloading it from the inbox answers 404 saying the file is gone.',
    params: documentIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteDocument(deps.db, deps.storage, principal.teamId, params.id),
  }),
];
