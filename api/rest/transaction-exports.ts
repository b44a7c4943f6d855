import { exportIdParams, exportSchema, listExportsQuery, requestExportBody } from '../../shared/domain/transaction-exports/schema';
import { getTransactionExport, listTransactionExports, requestTransactionExport } from '../../shared/domain/transaction-exports/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { one, page } from './replies';

const tag = 'Transactions';

/** Exports of transactions for an accountant: requested here, written by the ExportTransactions workflow. */
export const transactionExportRoutes = ({ db, temporal, config }: Pick<ApiDeps, 'db' | 'temporal' | 'config'>) => [
  defineRoute({
    method: 'post',
    path: '/transactions/export',
    scopes: ['transactions.read'],
    tag,
    summary: 'Export transactions (CSV, Excel and receipts as one ZIP)',
    description:
      "Starts an export of the transactions the `filter` selects (the filters of `GET /transactions`, as JSON; none: the list's default). It runs in the background (workflow `export:<id>`): the rows are written newest first to `transactions.csv` and `transactions.xlsx`, the files attached to them go under `receipts/`, and the ZIP is kept as a document of the team (download it with `GET /documents/{id}/file`). When it is ready the requester gets an `export_ready` notification, and `email`, when given, gets the link by mail. Follow it with `GET /transactions/exports/{id}`. Reading is all it does, so `transactions.read` is enough.",
    body: requestExportBody,
    reply: one(exportSchema),
    status: 202,
    handler: ({ principal, body }) =>
      requestTransactionExport(
        { db, temporal, publicUrl: config.PUBLIC_URL },
        { teamId: principal.teamId, userId: principal.userId },
        body,
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/exports',
    scopes: ['transactions.read'],
    tag,
    summary: 'List exports',
    description: 'Newest first, keyset-paginated; `status` narrows the list.',
    query: listExportsQuery,
    reply: page(exportSchema),
    handler: ({ principal, query }) => listTransactionExports(db, principal.teamId, query, config.PUBLIC_URL),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/exports/:id',
    scopes: ['transactions.read'],
    tag,
    summary: 'An export and its progress',
    description:
      "`status`, `rowsWritten` so far and, once `completed`, the `documentId` of the ZIP and where it downloads. 404 for an id that is not the team's.",
    params: exportIdParams,
    reply: one(exportSchema),
    handler: ({ principal, params }) => getTransactionExport(db, principal.teamId, params.id, config.PUBLIC_URL),
  }),
];
