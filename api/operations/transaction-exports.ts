import { exportIdParams, exportSchema, listExportsQuery, requestExportBody } from '../../shared/domain/transaction-exports/schema';
import { getTransactionExport, listTransactionExports, requestTransactionExport } from '../../shared/domain/transaction-exports/service';
import { mutation, one, page, query } from './declare';

/** Exports of transactions for an accountant: requested here, written by the ExportTransactions workflow. */
export const transactionExports = [
  mutation('transactionExports.create', 'POST /transactions/export', ['transactions.read'], {
    status: 202,
    formerly: ['transactions.export'],
    summary: 'Export transactions (CSV, Excel and receipts as one ZIP)',
    description:
      "Starts an export of the transactions the `filter` selects (the filters of `GET /transactions`, as JSON; none: the list's default). It runs in the background (workflow `export:<id>`): the rows are written newest first to `transactions.csv` and `transactions.xlsx` (a split transaction as a row per part, with its amount, category, tags and note, numbered in `Split part`), the files attached to them go under `receipts/`, `formats: ['datev']` adds DATEV bookings (EXTF Buchungsstapel, with the account mapping of `GET /datev/account-mapping`), and the ZIP is kept as a document of the team (download it with `GET /documents/{id}/file`). When it is ready the requester gets an `export_ready` notification, and `email`, when given, gets the link by mail. Follow it with `GET /transactions/exports/{id}`. Reading is all it does, so `transactions.read` is enough.",
    input: requestExportBody,
    output: one(exportSchema),
    run: ({ principal, input }, { db, temporal, config }) =>
      requestTransactionExport(
        { db, temporal, publicUrl: config.PUBLIC_URL },
        { teamId: principal.teamId, userId: principal.userId },
        input,
      ),
  }),
  query('transactionExports.get', 'GET /transactions/exports', ['transactions.read'], {
    formerly: ['transactions.listExports'],
    summary: 'List exports',
    description: 'Newest first, keyset-paginated; `status` narrows the list.',
    input: listExportsQuery,
    output: page(exportSchema),
    run: ({ principal, input }, { db, config }) => listTransactionExports(db, principal.teamId, input, config.PUBLIC_URL),
  }),
  query('transactionExports.getById', 'GET /transactions/exports/:id', ['transactions.read'], {
    formerly: ['transactions.getExport'],
    summary: 'An export and its progress',
    description:
      "`status`, `rowsWritten` so far and, once `completed`, the `documentId` of the ZIP and where it downloads. 404 for an id that is not the team's.",
    input: exportIdParams,
    output: one(exportSchema),
    run: ({ principal, input }, { db, config }) => getTransactionExport(db, principal.teamId, input.id, config.PUBLIC_URL),
  }),
];
