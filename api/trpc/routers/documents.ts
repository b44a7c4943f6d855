import { z } from 'zod';
import { pageOf } from '../../../shared/domain/common/page';
import {
  documentIdParams,
  documentSchema,
  listDocumentsQuery,
  updateDocumentBody,
  uploadUrlSchema,
} from '../../../shared/domain/documents/schema';
import { deleteDocument, getDocument, listDocuments, updateDocument } from '../../../shared/domain/documents/service';
import { UPLOAD_TOKEN_PARAM } from '../../auth/upload-token';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

/** Documents over tRPC; files go up through a signed URL on POST /documents (tRPC carries no multipart). */
export const documentsRouter = (deps: Pick<ApiDeps, 'db' | 'storage' | 'config' | 'uploads'>) =>
  router({
    get: procedure('documents.read')
      .input(listDocumentsQuery.prefault({}))
      .output(pageOf(documentSchema))
      .query(({ ctx, input }) => listDocuments(deps.db, ctx.principal.teamId, input)),
    getById: procedure('documents.read')
      .input(documentIdParams)
      .output(documentSchema)
      .query(({ ctx, input }) => getDocument(deps.db, ctx.principal.teamId, input.id)),
    update: procedure('documents.write')
      .input(documentIdParams.extend({ data: updateDocumentBody }))
      .output(documentSchema)
      .mutation(({ ctx, input }) => updateDocument(deps.db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('documents.write')
      .input(documentIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteDocument(deps.db, deps.storage, ctx.principal.teamId, input.id);
      }),
    /** A URL to POST the multipart form to, good for DOCUMENT_UPLOAD_URL_TTL, standing for this caller in this team. */
    uploadUrl: procedure('documents.write')
      .output(uploadUrlSchema)
      .mutation(async ({ ctx }) => {
        const { token, expiresAt } = await deps.uploads.sign(ctx.principal);
        return {
          url: `${deps.config.PUBLIC_URL ?? ''}/documents?${UPLOAD_TOKEN_PARAM}=${encodeURIComponent(token)}`,
          method: 'POST' as const,
          expiresAt: expiresAt.toISOString(),
          maxBytes: deps.config.DOCUMENT_MAX_BYTES,
        };
      }),
  });
