import { z } from 'zod';
import { DOCUMENT_STATUSES, EXTRACTION_METHODS, INBOX_ITEM_STATUSES, INBOX_SOURCES, INBOX_STATUSES } from '../../db/models';
import { isoDate, multi, pageSize, searchText } from '../common/query';
import { moneyAmount } from '../common/money';
import { currencyCode } from '../common/currency';

export const inboxItemSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(INBOX_ITEM_STATUSES),
    source: z.enum(INBOX_SOURCES),
    sender: z.string().nullable(),
    fileName: z.string().nullable(),
    mimeType: z.string().nullable(),
    size: z.number().nullable(),
    displayName: z.string().nullable().meta({ description: 'Merchant, as read from the document.' }),
    note: z.string().nullable().meta({ description: 'What the sender wrote with the file (a chat caption), or a note added later.' }),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    date: z.string().nullable(),
    taxAmount: z.number().nullable(),
    taxRate: z.number().nullable(),
    extractionMethod: z.enum(EXTRACTION_METHODS).nullable().meta({
      description:
        "How the fields were read: the PDF's text, OCR of the image, or the configured LLM; null until read, or when the file could not be read.",
    }),
    documentStatus: z
      .enum(DOCUMENT_STATUSES)
      .nullable()
      .meta({ description: 'Reading the file: `failed` means it could not be read at all; fill in the fields by hand (PATCH).' }),
    transactionId: z.uuid().nullable().meta({ description: 'The transaction it is attached to, once matched.' }),
    suggestion: z
      .object({ transactionId: z.uuid(), confidence: z.number(), status: z.string() })
      .nullable()
      .meta({ description: 'The pending match suggestion, if any.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'InboxItem', description: 'A receipt or invoice received by chat, email or upload.' });

export type InboxItemDto = z.infer<typeof inboxItemSchema>;

export const listInboxQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  statuses: multi(z.enum(INBOX_STATUSES)).meta({ description: 'Default: everything except deleted.' }),
  q: searchText('Search in merchant, note, file name and the text of the document (what the receipt says).'),
  from: isoDate.optional().meta({ description: 'Document date from, inclusive.' }),
  to: isoDate.optional(),
});

export const inboxIdParams = z.object({ id: z.uuid() });
export const updateInboxBody = z
  .object({
    displayName: z.string().max(200).nullable().optional(),
    note: z.string().max(1000).nullable().optional(),
    amount: moneyAmount
      .refine((n) => n > 0, 'must be positive')
      .nullable()
      .optional(),
    currency: currencyCode.nullable().optional(),
    date: isoDate.nullable().optional(),
    status: z.enum(['pending', 'archived']).optional().meta({ description: 'Archive an item, or bring it back.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateInboxItem' });
export const decisionBody = z.object({ transactionId: z.uuid() }).strict();

export const decisionResultSchema = z
  .object({
    outcome: z
      .enum(['signalled', 'confirmed', 'declined', 'expired', 'already_handled', 'not_found'])
      .meta({ description: '`signalled`: the waiting workflow applies it and replies in chat; otherwise what was applied here.' }),
  })
  .meta({ id: 'DecisionResult' });
