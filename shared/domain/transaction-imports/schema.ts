import { z } from 'zod';
import { IMPORT_FORMATS, IMPORT_STATUSES, type ImportError as ErrorColumn } from '../../db/models';
import type { ImportError as RunError } from '../../temporal/import-transactions/contract';
import { pageSize } from '../common/query';
import type { Assert, SameType } from '../common/same-type';

/** The day-month-year orders banks write; D and M may be one digit where a separator follows them. */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'YYYYMMDD',
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'DD-MM-YYYY',
  'MM/DD/YYYY',
  'MM-DD-YYYY',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DECIMAL_SEPARATORS = ['.', ','] as const;
export type DecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

const column = z
  .union([z.string().min(1).max(200), z.number().int().min(0).max(1000)])
  .meta({ description: 'A column: its header name (when the file has a header row) or its 0-based position.' });

export const csvMappingSchema = z
  .object({
    date: column,
    description: column.meta({ description: "The column with the transaction's text: it becomes the transaction's name." }),
    amount: column.optional().meta({ description: 'One signed amount column (negative: money out). Or give `debit` and/or `credit`.' }),
    debit: column.optional().meta({ description: 'Money out, whatever its sign in the file.' }),
    credit: column.optional().meta({ description: 'Money in.' }),
    currency: column.optional().meta({ description: "ISO 4217 code per row; without it, the account's currency." }),
    reference: column.optional().meta({ description: "The bank's reference: kept as the transaction's description." }),
    dateFormat: z.enum(DATE_FORMATS),
    decimalSeparator: z.enum(DECIMAL_SEPARATORS).default('.'),
    delimiter: z.enum(DELIMITERS).optional().meta({ description: 'Detected from the first line when not given.' }),
    hasHeader: z.boolean().default(true),
  })
  .strict()
  .refine((m) => m.amount !== undefined || m.debit !== undefined || m.credit !== undefined, {
    message: 'give an amount column, or debit and/or credit columns',
    path: ['amount'],
  })
  .refine((m) => m.amount === undefined || (m.debit === undefined && m.credit === undefined), {
    message: 'an amount column, or debit/credit columns, not both',
    path: ['amount'],
  })
  .refine(
    (m) => m.hasHeader || [m.date, m.description, m.amount, m.debit, m.credit, m.currency, m.reference].every((c) => typeof c !== 'string'),
    {
      message: 'a file without a header row names its columns by position',
      path: ['hasHeader'],
    },
  )
  .meta({ id: 'ImportMapping', description: "Where a CSV file's fields are, and how it writes dates and amounts." });
export type ImportMapping = z.output<typeof csvMappingSchema>;

/** The form fields of POST /transactions/import beside the file. `mapping` is JSON in a text field. */
export const importFields = z.object({
  bankAccountId: z.uuid(),
  mapping: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(csvMappingSchema.optional()),
});

export const importErrorSchema = z.object({
  line: z.number().int().meta({ description: 'The line of the file (1 is the first), or for OFX and CAMT.053 the transaction number.' }),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;
// imports.errors and the ImportTransactions contract each state this shape on their own.
type _ErrorIsTheColumn = Assert<SameType<ImportError, ErrorColumn>>;
type _ErrorIsTheRuns = Assert<SameType<ImportError, RunError>>;

export const importSchema = z
  .object({
    id: z.uuid(),
    bankAccountId: z.uuid(),
    format: z.enum(IMPORT_FORMATS),
    fileName: z.string(),
    fileSize: z.number().int(),
    status: z.enum(IMPORT_STATUSES).meta({
      description:
        'pending → importing (every row read, checked and written, in one transaction; `progress.rowsRead` grows as it goes) → completed; failed when a row is bad, and then nothing was imported. Imports accepted by an earlier version pass through validating (rows checked) before importing.',
    }),
    progress: z.object({
      rowsRead: z.number().int(),
      created: z.number().int(),
      skipped: z.number().int().meta({ description: 'Rows imported before (the same row of the same file): not created again.' }),
      matched: z.number().int().meta({
        description:
          'Rows that matched a transaction the account already had (synced from the bank, or entered by hand): the same amount and currency, a date at most a day apart and a similar name, each existing transaction matching one row at most (two identical coffees in the file against two synced: none created; three against two: one). Not created.',
      }),
    }),
    errors: z.array(importErrorSchema).meta({ description: 'Why the import failed: each bad row by line (the first 1,000).' }),
    workflowId: z.string().meta({ description: 'The ImportTransactions run, `import:<id>`.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'TransactionImport', description: 'A statement file imported into a bank account, and how far it got.' });
export type ImportDto = z.infer<typeof importSchema>;

export const importIdParams = z.object({ id: z.uuid() });
export const listImportsQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  status: z.enum(IMPORT_STATUSES).optional(),
});
export type ListImportsQuery = z.output<typeof listImportsQuery>;

/** What a client must still give before the suggested mapping is an ImportMapping. */
export const missingMappingFieldSchema = z
  .object({
    field: z.string().meta({
      description:
        'The ImportMapping field to add: `date`, `description`, `amount` (or `debit` and/or `credit` instead) or `dateFormat`; the name POST /transactions/import would give as `mapping.<field>` in its 400.',
    }),
    message: z.string().meta({ description: 'What was looked for and not found, and what to give.' }),
  })
  .meta({ id: 'ImportMappingMissingField' });

export const importPreviewSchema = z
  .object({
    format: z.enum(IMPORT_FORMATS),
    headers: z
      .array(z.string())
      .meta({ description: "The CSV file's header row; empty when it has none (columns are then named by position)." }),
    mapping: z.object(csvMappingSchema.shape).partial().nullable().meta({
      id: 'ImportMappingSuggestion',
      description:
        'For CSV: an `ImportMapping` as far as the file shows it: the columns recognised (by header name, or by position where a name is not unique or there is no header row), the date format and decimal separator the values fit, the delimiter and whether the first row is a header. A key that was not found is left out, never null. When `missing` is empty this is a complete ImportMapping: send it as it is as `mapping` to POST /transactions/import. Null for OFX and CAMT.053, which need no mapping.',
    }),
    missing: z.array(missingMappingFieldSchema).meta({
      description:
        'What `mapping` still lacks, one entry per field, in the order of the ImportMapping: add each (a column from `headers`, or a position) and the mapping is complete. Empty when the mapping can be sent as it is, and always for OFX and CAMT.053.',
    }),
    rows: z.array(z.array(z.string())).meta({ description: 'The first rows as they are in the file (CSV), after the header.' }),
    sample: z
      .array(
        z.object({
          line: z.number().int(),
          date: z.string(),
          amount: z.string(),
          currency: z.string().nullable(),
          name: z.string(),
          reference: z.string().nullable(),
        }),
      )
      .meta({ description: 'The first rows as they would be imported with `mapping`; empty while `missing` is not.' }),
  })
  .meta({ id: 'TransactionImportPreview' });
export type ImportPreviewDto = z.infer<typeof importPreviewSchema>;
