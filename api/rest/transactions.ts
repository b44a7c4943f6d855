import {
  createTransactionBody,
  listTransactionsQuery,
  transactionIdParams,
  transactionSchema,
  updateTransactionBody,
} from '../../shared/domain/transactions/schema';
import {
  createTransaction,
  deleteTransaction,
  getTransaction,
  listTransactions,
  updateTransaction,
} from '../../shared/domain/transactions/service';
import {
  BULK_LIMIT,
  bulkDeleteBody,
  bulkDeleteTransactions,
  bulkResultSchema,
  bulkUpdateBody,
  bulkUpdateTransactions,
} from '../../shared/domain/transactions/bulk';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { none, one, page } from './replies';

export const transactionRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  // Before `/transactions/:id`, which would otherwise take `bulk` for an id.
  defineRoute({
    method: 'patch',
    path: '/transactions/bulk',
    scopes: ['transactions.write'],
    tag: 'Transactions',
    summary: 'Change many transactions at once',
    description: `Select by \`ids\` or by \`filter\` (the list's filters as JSON), up to ${BULK_LIMIT.toLocaleString('en')} transactions, and \`set\` a category, status, assignee, note, flags, or tags to add or remove. All or nothing: an id that is not the team's is 404, a filter that selects more than the limit is 400, and nothing changes. Answers how many were selected and how many really changed.`,
    body: bulkUpdateBody,
    reply: one(bulkResultSchema),
    handler: ({ principal, body }) => bulkUpdateTransactions(db, principal.teamId, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/transactions/bulk',
    scopes: ['transactions.write'],
    tag: 'Transactions',
    summary: 'Delete many manual transactions',
    description: `Up to ${BULK_LIMIT.toLocaleString('en')} ids, all or nothing: an id that is not the team's is 404, a bank-synced transaction among them is 409 (it would come back with the next sync; exclude it instead).`,
    body: bulkDeleteBody,
    reply: one(bulkResultSchema),
    handler: ({ principal, body }) => bulkDeleteTransactions(db, principal.teamId, body.ids),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions',
    scopes: ['transactions.read'],
    tag: 'Transactions',
    summary: 'List transactions',
    description:
      "The team's transactions, newest first (by date, then id), with keyset pagination: pass `meta.cursor` back as `cursor` for the next page.",
    query: listTransactionsQuery,
    reply: page(transactionSchema),
    handler: ({ principal, query }) => listTransactions(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/:id',
    scopes: ['transactions.read'],
    tag: 'Transactions',
    summary: 'Get a transaction',
    params: transactionIdParams,
    reply: one(transactionSchema),
    handler: ({ principal, params }) => getTransaction(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/transactions',
    scopes: ['transactions.write'],
    tag: 'Transactions',
    summary: 'Create a manual transaction',
    description:
      'For transactions that no bank feed brings in (cash, imports). Every referenced account, category, tag and user must belong to your team.',
    body: createTransactionBody,
    reply: one(transactionSchema),
    status: 201,
    handler: ({ principal, body }) => createTransaction(db, principal.teamId, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/transactions/:id',
    scopes: ['transactions.write'],
    tag: 'Transactions',
    summary: 'Update a transaction',
    description:
      'Categorise, tag, annotate, exclude or archive any transaction. Date, name, amount, currency, description, method, counterparty and account can change only on manual transactions: for bank-synced ones the bank is the source of truth (400).',
    params: transactionIdParams,
    body: updateTransactionBody,
    reply: one(transactionSchema),
    handler: ({ principal, params, body }) => updateTransaction(db, principal.teamId, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/transactions/:id',
    scopes: ['transactions.write'],
    tag: 'Transactions',
    summary: 'Delete a manual transaction',
    description: 'Bank-synced transactions cannot be deleted (409): set `status` to `excluded` instead.',
    params: transactionIdParams,
    reply: none,
    handler: async ({ principal, params }) => deleteTransaction(db, principal.teamId, params.id),
  }),
];
