import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_STATUSES } from '../../db/models';
import { pageSize } from '../common/query';
import { transactionFilterBody } from '../transactions/schema';

export const requestExportBody = z
  .object({
    filter: transactionFilterBody
      .optional()
      .meta({ description: 'Which transactions: the filters of `GET /transactions`. Default: the same as the list with no filter.' }),
    formats: z
      .array(z.enum(EXPORT_FORMATS))
      .min(1)
      .max(EXPORT_FORMATS.length)
      .refine((f) => new Set(f).size === f.length, 'each format once')
      .optional()
      .meta({
        description:
          "What goes into the ZIP: `csv` (transactions.csv), `xlsx` (transactions.xlsx), `receipts` (the attached files, under receipts/), `datev` (EXTF_Buchungsstapel_<fiscal year start>.csv: DATEV's EXTF 700 Buchungsstapel, Windows-1252, one booking per transaction between its bank account's and its category's ledger accounts from the team's account mapping, `GET /datev/account-mapping`; needs the mapping's consultant and client numbers, else 409). Default: `csv`, `xlsx` and `receipts`.",
      }),
    email: z
      .email()
      .max(320)
      .optional()
      .meta({ description: "An address (the accountant's) to mail the download link to when the export is ready." }),
  })
  .strict()
  .meta({ id: 'RequestTransactionExport' });
export type RequestExportBody = z.infer<typeof requestExportBody>;

export const exportIdParams = z.object({ id: z.uuid().meta({ description: 'Export id.' }) });

export const exportSchema = z
  .object({
    id: z.uuid(),
    status: z
      .enum(EXPORT_STATUSES)
      .meta({ description: '`pending` → `running` → `completed` (the file is stored) or `failed` (see `error`).' }),
    filter: transactionFilterBody,
    formats: z.array(z.enum(EXPORT_FORMATS)),
    email: z.string().nullable(),
    rowsWritten: z.number().int().meta({
      description:
        'Rows written so far (a split transaction is a row per part): the progress of a running export, the total of a completed one.',
    }),
    receiptsWritten: z.number().int(),
    receiptsMissing: z
      .number()
      .int()
      .meta({ description: 'Attachments whose file is no longer stored (deleted since): listed in the CSV, absent from the ZIP.' }),
    documentId: z
      .uuid()
      .nullable()
      .meta({ description: 'The ZIP in the document library once completed: download it with `GET /documents/{id}/file`.' }),
    downloadUrl: z
      .string()
      .nullable()
      .meta({ description: 'Where the ZIP downloads (with `documents.read`); absolute when PUBLIC_URL is configured.' }),
    error: z.string().nullable(),
    notifiedAt: z.iso.datetime().nullable().meta({ description: 'When the requester was notified (`export_ready`).' }),
    emailedAt: z.iso.datetime().nullable().meta({ description: 'When the link was mailed to `email`.' }),
    workflowId: z.string().meta({ description: 'The ExportTransactions run, `export:<id>`.' }),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'TransactionExport', description: 'A transaction export: one ZIP with transactions.csv, transactions.xlsx and receipts/.' });
export type ExportDto = z.infer<typeof exportSchema>;

export const listExportsQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
  status: z.enum(EXPORT_STATUSES).optional(),
});
export type ListExportsQuery = z.output<typeof listExportsQuery>;
