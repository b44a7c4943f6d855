import { z } from 'zod';
import { FORMAT_SNIFF_BYTES } from '../../shared/domain/imports/formats';
import { previewImportFile } from '../../shared/domain/imports/preview';
import {
  DATE_FORMATS,
  importFields,
  importIdParams,
  importPreviewSchema,
  importSchema,
  listImportsQuery,
} from '../../shared/domain/imports/schema';
import { getImport, listImports, startImport } from '../../shared/domain/imports/service';
import { validationError } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import { spoolMultipart } from '../http/multipart';
import { defineRoute } from './define';
import { one, page } from './replies';

const tag = 'Transactions';
const binary = z.string().meta({ format: 'binary' });
const field = (fields: Record<string, string[] | undefined>, name: string) => fields[name]?.at(-1);

/**
 * Statement imports: a file goes to disk as it arrives (never whole in memory), then to storage
 * for the ImportTransactions run. Mounted before the transaction routes, so `imports` is not taken
 * for a transaction id.
 */
export const importRoutes = (deps: Pick<ApiDeps, 'db' | 'storage' | 'temporal' | 'config'>) => {
  const spool = (ctx: Parameters<typeof spoolMultipart>[0]) =>
    spoolMultipart(ctx, { maxFileBytes: deps.config.IMPORT_MAX_BYTES, maxFiles: 1, headBytes: FORMAT_SNIFF_BYTES });
  return [
    defineRoute({
      method: 'post',
      path: '/transactions/import/preview',
      scopes: ['transactions.write'],
      tag,
      summary: 'Preview a statement file before importing it',
      description: [
        'The file as `multipart/form-data` (part `file`). Changes nothing: answers what the importer sees.',
        `For CSV: the delimiter, whether the first row is a header, the columns recognised by their names (date, description, amount or debit/credit, currency, reference — in English, German, French, Dutch or Spanish), the date format (one of ${DATE_FORMATS.join(', ')}) and decimal separator the values fit, the first rows as they are, and as they would import. Only the first 64 KB are read. For OFX and CAMT.053: the format and the first transactions (for a statement up to 2 MB).`,
        'Send the detected mapping back, corrected where needed, as `mapping` to POST /transactions/import.',
      ].join('\n\n'),
      multipart: { description: 'The statement file.', form: z.object({ file: binary }) },
      reply: one(importPreviewSchema),
      handler: async ({ ctx }) => {
        const upload = await spool(ctx);
        try {
          return await previewImportFile(upload.files[0]);
        } finally {
          await upload.discard();
        }
      },
    }),
    defineRoute({
      method: 'post',
      path: '/transactions/import',
      scopes: ['transactions.write'],
      tag,
      summary: 'Import a statement file into a bank account',
      description: [
        "A CSV (any bank's layout, described by `mapping`), OFX, or CAMT.053 XML file as `multipart/form-data` (part `file`), with `bankAccountId` (an account of your team; another team's is 404) and, for CSV, `mapping` as JSON (see the `ImportMapping` schema and the preview). The format is detected from the content.",
        `The file streams to disk as it arrives; over \`IMPORT_MAX_BYTES\` (100 MB unless configured) is 413. Answers 202 with the import; an \`ImportTransactions\` workflow (\`import:<id>\`) then reads and checks every row, and only when all are good inserts them all in one database transaction. A bad row fails the import with every bad row by line (\`errors\`) and nothing imported.`,
        'Importing the same file again creates nothing: each row is keyed by its account, date, amount, text and how many identical rows came before it in the file, and a row already imported is counted as `skipped`. Follow the import with GET /transactions/imports/{id}.',
      ].join('\n\n'),
      multipart: {
        description: 'The statement file, the account, and for CSV the mapping.',
        form: z.object({
          file: binary,
          bankAccountId: z.uuid(),
          mapping: z.string().optional().meta({ description: 'JSON of an `ImportMapping`; required for CSV.' }),
        }),
      },
      status: 202,
      reply: one(importSchema),
      handler: async ({ principal, ctx }) => {
        const upload = await spool(ctx);
        try {
          const fields = importFields.safeParse({
            bankAccountId: field(upload.fields, 'bankAccountId'),
            mapping: field(upload.fields, 'mapping'),
          });
          if (!fields.success) throw validationError(fields.error, 'form fields');
          return await startImport(deps, principal, upload.files[0], fields.data);
        } finally {
          await upload.discard();
        }
      },
    }),
    defineRoute({
      method: 'get',
      path: '/transactions/imports',
      scopes: ['transactions.read'],
      tag,
      summary: 'List statement imports',
      description: 'Newest first, keyset-paginated; `status` narrows the list.',
      query: listImportsQuery,
      reply: page(importSchema),
      handler: ({ principal, query }) => listImports(deps.db, principal.teamId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/transactions/imports/:id',
      scopes: ['transactions.read'],
      tag,
      summary: 'Get a statement import',
      description: 'Its status, progress (rows read, created, skipped as duplicates) and, when it failed, the bad rows by line.',
      params: importIdParams,
      reply: one(importSchema),
      handler: ({ principal, params }) => getImport(deps.db, principal.teamId, params.id),
    }),
  ];
};
