import {
  createTransactionBody,
  listTransactionsQuery,
  transactionIdParams,
  updateTransactionBody,
} from '../../../shared/domain/transactions/schema';
import {
  createTransaction,
  deleteTransaction,
  getTransaction,
  listTransactions,
  updateTransaction,
} from '../../../shared/domain/transactions/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const transactionsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('transactions.get')
      .input(listTransactionsQuery.optional())
      .query(({ ctx, input }) => listTransactions(db, ctx.principal.teamId, listTransactionsQuery.parse(input ?? {}))),
    getById: procedure('transactions.getById')
      .input(transactionIdParams)
      .query(({ ctx, input }) => getTransaction(db, ctx.principal.teamId, input.id)),
    create: procedure('transactions.create')
      .input(createTransactionBody)
      .mutation(({ ctx, input }) => createTransaction(db, ctx.principal.teamId, input)),
    update: procedure('transactions.update')
      .input(transactionIdParams.extend({ data: updateTransactionBody }))
      .mutation(({ ctx, input }) => updateTransaction(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('transactions.delete')
      .input(transactionIdParams)
      .mutation(async ({ ctx, input }) => {
        await deleteTransaction(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });
