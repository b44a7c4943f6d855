import { z } from 'zod';
import {
  bankAccountSchema,
  bankConnectionSchema,
  createBankConnectionBody,
  idParams,
  syncStartedSchema,
  updateBankAccountBody,
  createBankAccountBody,
  linkSessionBody,
  linkSessionSchema,
  reconnectCompleteBody,
} from '../../../shared/domain/bank-connections/schema';
import { completeReconnect, createLinkSession, createReconnectSession } from '../../../shared/domain/bank-connections/link';
import {
  createConnection,
  deleteConnection,
  getAccount,
  getConnection,
  listAccounts,
  listConnections,
  manualSync,
  updateAccount,
  createManualAccount,
  deleteManualAccount,
} from '../../../shared/domain/bank-connections/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const bankConnectionsRouter = (deps: ApiDeps) =>
  router({
    get: procedure('bank-accounts.read')
      .output(z.array(bankConnectionSchema))
      .query(({ ctx }) => listConnections(deps.db, ctx.principal.teamId)),
    getById: procedure('bank-accounts.read')
      .input(idParams)
      .output(bankConnectionSchema)
      .query(({ ctx, input }) => getConnection(deps.db, ctx.principal.teamId, input.id)),
    create: procedure('bank-accounts.write')
      .input(createBankConnectionBody)
      .output(bankConnectionSchema)
      .mutation(({ ctx, input }) => createConnection(deps, ctx.principal.teamId, input)),
    link: procedure('bank-accounts.write')
      .input(linkSessionBody)
      .output(linkSessionSchema)
      .mutation(({ ctx, input }) => createLinkSession(deps, ctx.principal.teamId, input)),
    exchange: procedure('bank-accounts.write')
      .input(createBankConnectionBody)
      .output(bankConnectionSchema)
      .mutation(({ ctx, input }) => createConnection(deps, ctx.principal.teamId, input)),
    reconnect: procedure('bank-accounts.write')
      .input(idParams)
      .output(linkSessionSchema)
      .mutation(({ ctx, input }) => createReconnectSession(deps, ctx.principal.teamId, input.id)),
    completeReconnect: procedure('bank-accounts.write')
      .input(idParams.extend({ data: reconnectCompleteBody }))
      .output(bankConnectionSchema)
      .mutation(({ ctx, input }) => completeReconnect(deps, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('bank-accounts.write')
      .input(idParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteConnection(deps, ctx.principal.teamId, input.id);
      }),
    sync: procedure('bank-accounts.write')
      .input(idParams)
      .output(syncStartedSchema)
      .mutation(({ ctx, input }) => manualSync(deps, ctx.principal.teamId, input.id)),
  });

export const bankAccountsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('bank-accounts.read')
      .output(z.array(bankAccountSchema))
      .query(({ ctx }) => listAccounts(db, ctx.principal.teamId)),
    getById: procedure('bank-accounts.read')
      .input(idParams)
      .output(bankAccountSchema)
      .query(({ ctx, input }) => getAccount(db, ctx.principal.teamId, input.id)),
    create: procedure('bank-accounts.write')
      .input(createBankAccountBody)
      .output(bankAccountSchema)
      .mutation(({ ctx, input }) => createManualAccount(db, ctx.principal.teamId, input)),
    delete: procedure('bank-accounts.write')
      .input(idParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteManualAccount(db, ctx.principal.teamId, input.id);
      }),
    update: procedure('bank-accounts.write')
      .input(idParams.extend({ data: updateBankAccountBody }))
      .output(bankAccountSchema)
      .mutation(({ ctx, input }) => updateAccount(db, ctx.principal.teamId, input.id, input.data)),
  });
