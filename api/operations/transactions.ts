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
import { mutation, query } from './declare';
import { none, one, page } from './output';

export const transactions = [
  query('transactions.get', {
    rest: 'GET /transactions',
    scopes: ['transactions.read'],
    summary: 'List transactions',
    description:
      "The team's transactions, newest first (by date, then id), with keyset pagination: pass `meta.cursor` back as `cursor` for the next page.",
    input: listTransactionsQuery,
    output: page(transactionSchema),
    run: ({ principal, input }, { db }) => listTransactions(db, principal.teamId, input),
  }),
  query('transactions.getById', {
    rest: 'GET /transactions/:id',
    scopes: ['transactions.read'],
    summary: 'Get a transaction',
    input: transactionIdParams,
    output: one(transactionSchema),
    run: ({ principal, input }, { db }) => getTransaction(db, principal.teamId, input.id),
  }),
  mutation('transactions.create', {
    rest: 'POST /transactions',
    status: 201,
    scopes: ['transactions.write'],
    summary: 'Create a manual transaction',
    description:
      'For transactions that no bank feed brings in (cash, imports). Every referenced account, category, tag and user must belong to your team.',
    input: createTransactionBody,
    output: one(transactionSchema),
    run: ({ principal, input }, { db }) => createTransaction(db, principal.teamId, input),
  }),
  mutation('transactions.update', {
    rest: 'PATCH /transactions/:id',
    body: 'data',
    scopes: ['transactions.write'],
    summary: 'Update a transaction',
    description:
      'Categorise, tag, annotate, exclude or archive any transaction. Date, name, amount, currency, description, method, counterparty and account can change only on manual transactions: for bank-synced ones the bank is the source of truth (400).',
    input: transactionIdParams.extend({ data: updateTransactionBody }),
    output: one(transactionSchema),
    run: ({ principal, input }, { db }) => updateTransaction(db, principal.teamId, input.id, input.data),
  }),
  mutation('transactions.delete', {
    rest: 'DELETE /transactions/:id',
    scopes: ['transactions.write'],
    summary: 'Delete a manual transaction',
    description: 'Bank-synced transactions cannot be deleted (409): set `status` to `excluded` instead.',
    input: transactionIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteTransaction(db, principal.teamId, input.id),
  }),
  mutation('transactions.bulkUpdate', {
    rest: 'PATCH /transactions/bulk',
    scopes: ['transactions.write'],
    summary: 'Change many transactions at once',
    description: `Select by \`ids\` or by \`filter\` (the list's filters as JSON), up to ${BULK_LIMIT.toLocaleString('en')} transactions, and \`set\` a category, status, assignee, note, flags, or tags to add or remove. All or nothing: an id that is not the team's is 404, a filter that selects more than the limit is 400, and nothing changes. Answers how many were selected and how many really changed.`,
    input: bulkUpdateBody,
    output: one(bulkResultSchema),
    run: ({ principal, input }, { db }) => bulkUpdateTransactions(db, principal.teamId, input),
  }),
  mutation('transactions.bulkDelete', {
    rest: 'DELETE /transactions/bulk',
    scopes: ['transactions.write'],
    summary: 'Delete many manual transactions',
    description: `Up to ${BULK_LIMIT.toLocaleString('en')} ids, all or nothing: an id that is not the team's is 404, a bank-synced transaction among them is 409 (it would come back with the next sync; exclude it instead).`,
    input: bulkDeleteBody,
    output: one(bulkResultSchema),
    run: ({ principal, input }, { db }) => bulkDeleteTransactions(db, principal.teamId, input.ids),
  }),
];
