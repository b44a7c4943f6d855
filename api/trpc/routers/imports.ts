import { pageOf } from '../../../shared/domain/common/page';
import { importIdParams, importSchema, listImportsQuery } from '../../../shared/domain/imports/schema';
import { getImport, listImports } from '../../../shared/domain/imports/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

/** Statement imports, read only: a file is uploaded and its import started over REST (POST /transactions/import). */
export const transactionImportsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    list: procedure('transactions.read')
      .input(listImportsQuery.prefault({}))
      .output(pageOf(importSchema))
      .query(({ ctx, input }) => listImports(db, ctx.principal.teamId, input)),
    getById: procedure('transactions.read')
      .input(importIdParams)
      .output(importSchema)
      .query(({ ctx, input }) => getImport(db, ctx.principal.teamId, input.id)),
  });
