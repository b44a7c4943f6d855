import { z } from 'zod';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES } from '../../db/models';
import { isoDate, multi, pageSize, searchText } from '../common/query';

export const documentSchema = z
  .object({
    id: z.uuid(),
    name: z.string().meta({ description: 'The file name, as uploaded or renamed.' }),
    title: z.string().nullable().meta({ description: 'What processing read as its title (a receipt: the merchant).' }),
    mimeType: z.string().meta({ description: 'Detected from the content, not from the name.' }),
    size: z.number().int().meta({ description: 'In bytes.' }),
    sha256: z.string().meta({ description: 'Of the content: the same file uploaded twice is one document.' }),
    kind: z.enum(DOCUMENT_KINDS).nullable().meta({ description: 'What processing found it to be; null until processed.' }),
    processingStatus: z.enum(DOCUMENT_STATUSES).meta({
      description: '`pending` → `processing` → `completed`, or `failed` when the file could not be read (see `processingError`).',
    }),
    processingError: z.string().nullable(),
    processedAt: z.iso.datetime().nullable(),
    tags: z.array(z.object({ id: z.uuid(), name: z.string() })),
    inboxItemId: z.uuid().nullable().meta({ description: 'The inbox item that matches it to a transaction, for receipts and invoices.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Document', description: 'A stored file: uploaded, or received as a receipt by chat or email.' });
export type DocumentDto = z.infer<typeof documentSchema>;

export const uploadedDocumentSchema = documentSchema
  .extend({
    duplicate: z
      .boolean()
      .meta({ description: 'True when the team already had this file: the existing document is returned, not a copy.' }),
  })
  .meta({ id: 'UploadedDocument' });
export type UploadedDocumentDto = z.infer<typeof uploadedDocumentSchema>;

export const listDocumentsQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  q: searchText('Search in the name, the extracted text and the tag names.'),
  tags: multi(z.uuid()).meta({ description: 'Documents carrying any of these tags.' }),
  kinds: multi(z.enum(DOCUMENT_KINDS)),
  mimeTypes: multi(z.string().max(100)),
  statuses: multi(z.enum(DOCUMENT_STATUSES)).meta({ description: 'Processing status.' }),
  from: isoDate.optional().meta({ description: 'Created on or after this date (UTC).' }),
  to: isoDate.optional().meta({ description: 'Created on or before this date (UTC).' }),
});

export const documentIdParams = z.object({ id: z.uuid() });

export const updateDocumentBody = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    tags: z.array(z.uuid()).max(50).optional().meta({ description: 'Replaces the tags: ids of the team’s tags.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateDocument' });

/** The text fields of the multipart upload besides its files. */
export const uploadFields = z.object({
  tags: multi(z.uuid()).meta({ description: 'Tag ids to put on every uploaded file (repeat the field or separate with commas).' }),
});

export const uploadUrlSchema = z
  .object({
    url: z.string().meta({ description: 'POST the multipart form here, without an Authorization header.' }),
    method: z.literal('POST'),
    expiresAt: z.iso.datetime(),
    maxBytes: z.number().int().meta({ description: 'The largest file it takes.' }),
  })
  .meta({ id: 'DocumentUploadUrl' });
