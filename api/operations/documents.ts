import { z } from 'zod';
import * as schema from '../../shared/domain/documents/schema';
import { deleteDocument, getDocument, listDocuments, openDocumentFile, updateDocument } from '../../shared/domain/documents/service';
import { uploadDocuments } from '../../shared/domain/documents/upload';
import { SNIFF_BYTES } from '../../shared/domain/documents/file-types';
import { UPLOAD_TOKEN_PARAM } from '../auth/upload-token';
import { all, file, mutation, none, one, page, query, trpcOnly } from './declare';

const binary = z.string().meta({ format: 'binary' });

/** The team's files: uploaded here, or received as receipts by chat and email. */
export const documents = [
  query('documents.get', 'GET /documents', ['documents.read'], {
    summary: 'List documents',
    description:
      'Newest first, keyset-paginated. `q` searches the name, the text read from the file and the tag names; the other filters narrow by tag, kind, type, processing status and upload date.',
    input: schema.listDocumentsQuery,
    output: page(schema.documentSchema),
    run: ({ principal, input }, { db }) => listDocuments(db, principal.teamId, input),
  }),
  query('documents.getById', 'GET /documents/:id', ['documents.read'], {
    summary: 'Get a document',
    input: schema.documentIdParams,
    output: one(schema.documentSchema),
    run: ({ principal, input }, { db }) => getDocument(db, principal.teamId, input.id),
  }),
  mutation('documents.update', 'PATCH /documents/:id', ['documents.write'], {
    body: 'data',
    summary: 'Rename a document or change its tags',
    input: schema.documentIdParams.extend({ data: schema.updateDocumentBody }),
    output: one(schema.documentSchema),
    run: ({ principal, input }, { db }) => updateDocument(db, principal.teamId, input.id, input.data),
  }),
  mutation('documents.delete', 'DELETE /documents/:id', ['documents.write'], {
    summary: 'Delete a document',
    description:
      'Removes the document and its file. An inbox item or a transaction attachment that held it stays, without its file: downloading it from the inbox answers 404 saying the file is gone.',
    input: schema.documentIdParams,
    output: none,
    run: ({ principal, input }, { db, storage }) => deleteDocument(db, storage, principal.teamId, input.id),
  }),
  mutation('documents.uploadUrl', trpcOnly('REST clients POST the files to /documents directly'), ['documents.write'], {
    summary: 'A signed URL to upload documents to',
    description:
      'A URL to POST the multipart form of `POST /documents` to, without an Authorization header: good for `DOCUMENT_UPLOAD_URL_TTL`, standing for this caller in this team (tRPC carries no multipart).',
    output: one(schema.uploadUrlSchema),
    run: async ({ principal }, { uploads, config }) => {
      const { token, expiresAt } = await uploads.sign(principal);
      return {
        url: `${config.PUBLIC_URL ?? ''}/documents?${UPLOAD_TOKEN_PARAM}=${encodeURIComponent(token)}`,
        method: 'POST' as const,
        expiresAt: expiresAt.toISOString(),
        maxBytes: config.DOCUMENT_MAX_BYTES,
      };
    },
  }),
  mutation('documents.upload', 'POST /documents', ['documents.write'], {
    restOnly: 'a multipart upload',
    status: 201,
    summary: 'Upload documents',
    description: [
      'One or more files as `multipart/form-data` (any part name), with optional `tags` (tag ids, repeated or comma-separated). Each file is streamed to storage, never held in memory.',
      'The type is detected from the content, not the name: PDFs, images (JPEG, PNG, WebP, HEIC, GIF, TIFF), office files (DOCX, XLSX, PPTX, ODT, ODS), XML, plain text and CSV. Anything else, executables first, is 415 and nothing of the request is stored. A supplier’s e-invoice (a Factur-X/ZUGFeRD PDF, or XRechnung, Peppol UBL or CII XML) is read structurally, without OCR, and goes to the inbox with its exact figures (`InboxItem.eInvoice`); a malformed or forged one becomes a `failed` inbox item with its `failureReason`. A file over `DOCUMENT_MAX_BYTES` (25 MB unless configured) is 413, as is more than `DOCUMENT_MAX_FILES` files.',
      'The same bytes again are the document the team already has (`duplicate: true`), as for receipts. Each new document is processed in the background (`processingStatus`): its text is read, it is classified, and receipts and supplier invoices go to the inbox to be matched.',
      `Without a bearer token, a signed upload URL from the tRPC procedure \`documents.uploadUrl\` authenticates the request through its \`${UPLOAD_TOKEN_PARAM}\` query parameter.`,
    ].join('\n\n'),
    multipart: {
      description: 'The files, and optionally the tags for all of them.',
      form: z.object({
        file: z.union([binary, z.array(binary)]),
        tags: z.string().optional().meta({ description: 'Tag ids, comma-separated.' }),
      }),
      limits: (config) => ({ maxFileBytes: config.DOCUMENT_MAX_BYTES, maxFiles: config.DOCUMENT_MAX_FILES, headBytes: SNIFF_BYTES }),
      fields: (sent) => ({ tags: sent.tags }),
    },
    credential: (ctx, deps) => deps.uploads.callerOf(ctx),
    input: schema.uploadFields,
    output: all(schema.uploadedDocumentSchema),
    run: ({ principal, input, files }, { db, storage, temporal, config }) =>
      uploadDocuments({ db, storage, temporal, decisionTimeoutMs: config.RECEIPT_DECISION_TIMEOUT }, principal, files, input.tags),
  }),
  query('documents.download', 'GET /documents/:id/file', ['documents.read'], {
    restOnly: 'a file download',
    summary: 'Download a document',
    description:
      'The stored bytes, streamed, with their detected `Content-Type`, `Content-Length` and a `Content-Disposition` naming the file (RFC 6266: an ASCII `filename`, with accents dropped and any other letter, quote, backslash, semicolon or percent sign as `_`, and the name itself as UTF-8 `filename*` whenever the two differ).',
    input: schema.documentIdParams,
    output: file('The file as it was uploaded.'),
    run: async ({ principal, input }, { db, storage }) => {
      const found = await openDocumentFile(db, storage, principal.teamId, input.id);
      return { body: found.stream, mimeType: found.mimeType, fileName: found.name, size: found.size };
    },
  }),
];
