import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import {
  createTransactionBody,
  listTransactionsQuery,
  transactionIdParams,
  transactionSchema,
  updateTransactionBody,
} from '../../../shared/domain/transactions/schema';
import {
  createTransaction,
  deleteTransaction,
  getTransaction,
  listTransactions,
  updateTransaction,
} from '../../../shared/domain/transactions/service';
import {
  bulkDeleteBody,
  bulkDeleteTransactions,
  bulkResultSchema,
  bulkUpdateBody,
  bulkUpdateTransactions,
} from '../../../shared/domain/transactions/bulk';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';
import { transactionExportProcedures } from './transaction-exports';

export const transactionsRouter = (deps: Pick<ApiDeps, 'db' | 'temporal' | 'config'>) => {
  const { db } = deps;
  return router({
    ...transactionExportProcedures(deps),
    bulkUpdate: procedure('transactions.write')
      .input(bulkUpdateBody)
      .output(bulkResultSchema)
      .mutation(({ ctx, input }) => bulkUpdateTransactions(db, ctx.principal.teamId, input)),
    bulkDelete: procedure('transactions.write')
      .input(bulkDeleteBody)
      .output(bulkResultSchema)
      .mutation(({ ctx, input }) => bulkDeleteTransactions(db, ctx.principal.teamId, input.ids)),
    get: procedure('transactions.read')
      .input(listTransactionsQuery.prefault({}))
      .output(pageOf(transactionSchema))
      .query(({ ctx, input }) => listTransactions(db, ctx.principal.teamId, input)),
    getById: procedure('transactions.read')
      .input(transactionIdParams)
      .output(transactionSchema)
      .query(({ ctx, input }) => getTransaction(db, ctx.principal.teamId, input.id)),
    create: procedure('transactions.write')
      .input(createTransactionBody)
      .output(transactionSchema)
      .mutation(({ ctx, input }) => createTransaction(db, ctx.principal.teamId, input)),
    update: procedure('transactions.write')
      .input(transactionIdParams.extend({ data: updateTransactionBody }))
      .output(transactionSchema)
      .mutation(({ ctx, input }) => updateTransaction(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('transactions.write')
      .input(transactionIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteTransaction(db, ctx.principal.teamId, input.id);
      }),
  });
};
