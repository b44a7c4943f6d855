import { listTransactionsQuery, transactionListSchema } from '../../shared/domain/transactions/schema';
import { listTransactions } from '../../shared/domain/transactions/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

export const transactionRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/transactions',
    tag: 'Transactions',
    summary: 'List transactions',
    description: 'The team\'s transactions, newest first (by date, then id), with keyset pagination: pass `meta.cursor` back as `cursor` for the next page.',
    query: listTransactionsQuery,
    response: transactionListSchema,
    handler: ({ principal, query }) => listTransactions(db, principal.teamId, query),
  }),
];
