import { createBankConnectionBody, idParams, updateBankAccountBody } from '../../../shared/domain/bank-connections/schema';
import {
  createConnection,
  deleteConnection,
  getAccount,
  getConnection,
  listAccounts,
  listConnections,
  manualSync,
  updateAccount,
} from '../../../shared/domain/bank-connections/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const bankConnectionsRouter = (deps: ApiDeps) =>
  router({
    get: procedure('bankConnections.get').query(({ ctx }) => listConnections(deps.db, ctx.principal.teamId)),
    getById: procedure('bankConnections.getById').input(idParams).query(({ ctx, input }) => getConnection(deps.db, ctx.principal.teamId, input.id)),
    create: procedure('bankConnections.create').input(createBankConnectionBody).mutation(({ ctx, input }) => createConnection(deps, ctx.principal.teamId, input)),
    delete: procedure('bankConnections.delete')
      .input(idParams)
      .mutation(async ({ ctx, input }) => {
        await deleteConnection(deps.db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
    sync: procedure('bankConnections.sync').input(idParams).mutation(({ ctx, input }) => manualSync(deps, ctx.principal.teamId, input.id)),
  });

export const bankAccountsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('bankAccounts.get').query(({ ctx }) => listAccounts(db, ctx.principal.teamId)),
    getById: procedure('bankAccounts.getById').input(idParams).query(({ ctx, input }) => getAccount(db, ctx.principal.teamId, input.id)),
    update: procedure('bankAccounts.update')
      .input(idParams.extend({ data: updateBankAccountBody }))
      .mutation(({ ctx, input }) => updateAccount(db, ctx.principal.teamId, input.id, input.data)),
  });
