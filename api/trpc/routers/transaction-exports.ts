import { pageOf } from '../../../shared/domain/common/page';
import { exportIdParams, exportSchema, listExportsQuery, requestExportBody } from '../../../shared/domain/transaction-exports/schema';
import { getTransactionExport, listTransactionExports, requestTransactionExport } from '../../../shared/domain/transaction-exports/service';
import type { ApiDeps } from '../../deps';
import { procedure } from '../trpc';

/** `transactions.export`, `transactions.listExports` and `transactions.getExport`: the same services as REST `/transactions/export(s)`. */
export const transactionExportProcedures = ({ db, temporal, config }: Pick<ApiDeps, 'db' | 'temporal' | 'config'>) => ({
  export: procedure('transactions.read')
    .input(requestExportBody.prefault({}))
    .output(exportSchema)
    .mutation(({ ctx, input }) =>
      requestTransactionExport(
        { db, temporal, publicUrl: config.PUBLIC_URL },
        { teamId: ctx.principal.teamId, userId: ctx.principal.userId },
        input,
      ),
    ),
  listExports: procedure('transactions.read')
    .input(listExportsQuery.prefault({}))
    .output(pageOf(exportSchema))
    .query(({ ctx, input }) => listTransactionExports(db, ctx.principal.teamId, input, config.PUBLIC_URL)),
  getExport: procedure('transactions.read')
    .input(exportIdParams)
    .output(exportSchema)
    .query(({ ctx, input }) => getTransactionExport(db, ctx.principal.teamId, input.id, config.PUBLIC_URL)),
});
