import { listTransactionsQuery } from '../../../shared/domain/transactions/schema';
import { listTransactions } from '../../../shared/domain/transactions/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const transactionsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('transactions.get')
      .input(listTransactionsQuery.optional())
      .query(({ ctx, input }) => listTransactions(db, ctx.principal.teamId, listTransactionsQuery.parse(input ?? {}))),
  });
