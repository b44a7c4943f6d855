import { z } from 'zod';
import { FORMAT_SNIFF_BYTES } from '../../shared/domain/transaction-imports/formats';
import { previewImportFile } from '../../shared/domain/transaction-imports/preview';
import * as schema from '../../shared/domain/transaction-imports/schema';
import { getImport, listImports, startImport } from '../../shared/domain/transaction-imports/service';
import type { ApiDeps } from '../deps';
import { mutation, one, page, query } from './declare';

const binary = z.string().meta({ format: 'binary' });
const limits = (config: ApiDeps['config']) => ({ maxFileBytes: config.IMPORT_MAX_BYTES, maxFiles: 1, headBytes: FORMAT_SNIFF_BYTES });

/** Statement imports: a file goes to disk as it arrives (never whole in memory), then to storage for the ImportTransactions run. */
export const transactionImports = [
  query('transactionImports.get', 'GET /transactions/imports', ['transactions.read'], {
    formerly: ['transactionImports.list'],
    summary: 'List statement imports',
    description: 'Newest first, keyset-paginated; `status` narrows the list.',
    input: schema.listImportsQuery,
    output: page(schema.importSchema),
    run: ({ principal, input }, { db }) => listImports(db, principal.teamId, input),
  }),
  query('transactionImports.getById', 'GET /transactions/imports/:id', ['transactions.read'], {
    summary: 'Get a statement import',
    description: 'Its status, progress (rows read, created, skipped as duplicates) and, when it failed, the bad rows by line.',
    input: schema.importIdParams,
    output: one(schema.importSchema),
    run: ({ principal, input }, { db }) => getImport(db, principal.teamId, input.id),
  }),
  mutation('transactionImports.create', 'POST /transactions/import', ['transactions.write'], {
    restOnly: 'a multipart upload',
    status: 202,
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
      limits,
    },
    input: schema.importFields,
    output: one(schema.importSchema),
    run: ({ principal, input, files }, deps) => startImport(deps, principal, files[0], input),
  }),
  mutation('transactionImports.preview', 'POST /transactions/import/preview', ['transactions.write'], {
    restOnly: 'a multipart upload',
    summary: 'Preview a statement file before importing it',
    description: [
      'The file as `multipart/form-data` (part `file`). Changes nothing: answers what the importer sees.',
      `For CSV: the header row, and \`mapping\`, an ImportMapping as far as the file shows it: the columns recognised by their names (date, description, amount or debit/credit, currency, reference — in English, German, French, Dutch or Spanish) or, without a header, the first column of dates and of amounts; the date format (one of ${schema.DATE_FORMATS.join(', ')}) and decimal separator the values fit; the delimiter; whether the first row is a header. A field that was not found is left out of \`mapping\` (never null), and \`missing\` names each one the import needs (\`date\`, \`description\`, \`amount\` or \`debit\`/\`credit\`, \`dateFormat\`) with what to give. Then the first rows as they are, and as they would import with \`mapping\`. Only the first 64 KB are read. For OFX and CAMT.053: the format and the first transactions (for a statement up to 2 MB); \`mapping\` is null and \`missing\` empty, as those need none.`,
      'When `missing` is empty, send `mapping` back as it is (JSON in the `mapping` field) to POST /transactions/import; otherwise add what `missing` names first (and correct any column it guessed wrong).',
    ].join('\n\n'),
    multipart: { description: 'The statement file.', form: z.object({ file: binary }), limits },
    output: one(schema.importPreviewSchema),
    run: ({ files }) => previewImportFile(files[0]),
  }),
];
