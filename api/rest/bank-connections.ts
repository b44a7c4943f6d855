import {
  bankAccountSchema,
  bankConnectionSchema,
  createBankConnectionBody,
  idParams,
  syncStartedSchema,
  updateBankAccountBody,
} from '../../shared/domain/bank-connections/schema';
import {
  createConnection,
  deleteConnection,
  getAccount,
  getConnection,
  listAccounts,
  listConnections,
  manualSync,
  updateAccount,
} from '../../shared/domain/bank-connections/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { all, none, one } from './replies';

export const bankRoutes = (deps: ApiDeps) => {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/bank-connections',
      scopes: ['bank-accounts.read'],
      tag: 'Banking',
      summary: 'List bank connections',
      description: 'With their accounts (not paginated).',
      reply: all(bankConnectionSchema),
      handler: ({ principal }) => listConnections(db, principal.teamId),
    }),
    defineRoute({
      method: 'get',
      path: '/bank-connections/:id',
      scopes: ['bank-accounts.read'],
      tag: 'Banking',
      summary: 'Get a bank connection',
      params: idParams,
      reply: one(bankConnectionSchema),
      handler: ({ principal, params }) => getConnection(db, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/bank-connections',
      scopes: ['bank-accounts.write'],
      tag: 'Banking',
      summary: 'Connect a bank',
      description:
        '`{provider: "bank-a", publicToken}` (exchanged with bank-a) or `{provider: "bank-b", accessToken, enrollmentId}`. The access token is stored encrypted. The connection starts `connected` and its first sync starts at once (SyncConnection workflow). 409 when it is already connected.',
      body: createBankConnectionBody,
      reply: one(bankConnectionSchema),
      status: 201,
      handler: ({ principal, body }) => createConnection(deps, principal.teamId, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/bank-connections/:id',
      scopes: ['bank-accounts.write'],
      tag: 'Banking',
      summary: 'Delete a bank connection',
      description: 'Stops future syncs. Its accounts are kept as unlinked accounts and its transactions stay.',
      params: idParams,
      reply: none,
      handler: ({ principal, params }) => deleteConnection(deps, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/bank-connections/:id/sync',
      scopes: ['bank-accounts.write'],
      tag: 'Banking',
      summary: 'Sync now',
      description:
        'Requests a sync (`manualSync: true`). Requests made while one runs coalesce into at most one more pass. 409 for a disconnected connection.',
      params: idParams,
      reply: one(syncStartedSchema),
      status: 202,
      handler: ({ principal, params }) => manualSync(deps, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/bank-accounts',
      scopes: ['bank-accounts.read'],
      tag: 'Banking',
      summary: 'List bank accounts',
      reply: all(bankAccountSchema),
      handler: ({ principal }) => listAccounts(db, principal.teamId),
    }),
    defineRoute({
      method: 'get',
      path: '/bank-accounts/:id',
      scopes: ['bank-accounts.read'],
      tag: 'Banking',
      summary: 'Get a bank account',
      params: idParams,
      reply: one(bankAccountSchema),
      handler: ({ principal, params }) => getAccount(db, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/bank-accounts/:id',
      scopes: ['bank-accounts.write'],
      tag: 'Banking',
      summary: 'Rename, enable or disable a bank account',
      params: idParams,
      body: updateBankAccountBody,
      reply: one(bankAccountSchema),
      handler: ({ principal, params, body }) => updateAccount(db, principal.teamId, params.id, body),
    }),
  ];
};
