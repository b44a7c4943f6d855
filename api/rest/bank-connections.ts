import { z } from 'zod';
import {
  bankAccountEnvelope,
  bankAccountListSchema,
  bankConnectionEnvelope,
  bankConnectionListSchema,
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

export const bankRoutes = (deps: ApiDeps) => {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get', path: '/bank-connections', tag: 'Banking', summary: 'List bank connections', description: 'With their accounts (not paginated).',
      response: bankConnectionListSchema,
      handler: async ({ principal }) => ({ data: await listConnections(db, principal.teamId) }),
    }),
    defineRoute({
      method: 'get', path: '/bank-connections/:id', tag: 'Banking', summary: 'Get a bank connection',
      params: idParams, response: bankConnectionEnvelope,
      handler: async ({ principal, params }) => ({ data: await getConnection(db, principal.teamId, params.id) }),
    }),
    defineRoute({
      method: 'post', path: '/bank-connections', tag: 'Banking', summary: 'Connect a bank',
      description: '`{provider: "bank-a", publicToken}` (exchanged with bank-a) or `{provider: "bank-b", accessToken, enrollmentId}`. The access token is stored encrypted. The connection starts `connected` and its first sync starts at once (SyncConnection workflow). 409 when it is already connected.',
      body: createBankConnectionBody, response: bankConnectionEnvelope, status: 201,
      handler: async ({ principal, body }) => ({ data: await createConnection(deps, principal.teamId, body) }),
    }),
    defineRoute({
      method: 'delete', path: '/bank-connections/:id', tag: 'Banking', summary: 'Delete a bank connection',
      description: 'Stops future syncs. Its accounts are kept as unlinked accounts and its transactions stay.',
      params: idParams, response: z.null(), status: 204,
      handler: ({ principal, params }) => deleteConnection(db, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'post', path: '/bank-connections/:id/sync', tag: 'Banking', summary: 'Sync now',
      description: 'Requests a sync (`manualSync: true`). Requests made while one runs coalesce into at most one more pass. 409 for a disconnected connection.',
      params: idParams, response: syncStartedSchema, status: 202,
      handler: async ({ principal, params }) => ({ data: await manualSync(deps, principal.teamId, params.id) }),
    }),
    defineRoute({
      method: 'get', path: '/bank-accounts', tag: 'Banking', summary: 'List bank accounts',
      response: bankAccountListSchema,
      handler: async ({ principal }) => ({ data: await listAccounts(db, principal.teamId) }),
    }),
    defineRoute({
      method: 'get', path: '/bank-accounts/:id', tag: 'Banking', summary: 'Get a bank account',
      params: idParams, response: bankAccountEnvelope,
      handler: async ({ principal, params }) => ({ data: await getAccount(db, principal.teamId, params.id) }),
    }),
    defineRoute({
      method: 'patch', path: '/bank-accounts/:id', tag: 'Banking', summary: 'Rename, enable or disable a bank account',
      params: idParams, body: updateBankAccountBody, response: bankAccountEnvelope,
      handler: async ({ principal, params, body }) => ({ data: await updateAccount(db, principal.teamId, params.id, body) }),
    }),
  ];
};
