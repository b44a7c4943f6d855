import * as schema from '../../shared/domain/bank-connections/schema';
import { completeReconnect, createLinkSession, createReconnectSession } from '../../shared/domain/bank-connections/link';
import * as service from '../../shared/domain/bank-connections/service';
import { all, mutation, none, one, query } from './declare';

export const bankConnections = [
  query('bankConnections.get', 'GET /bank-connections', ['bank-accounts.read'], {
    summary: 'List bank connections',
    description: 'With their accounts (not paginated).',
    output: all(schema.bankConnectionSchema),
    run: ({ principal }, { db }) => service.listConnections(db, principal.teamId),
  }),
  query('bankConnections.getById', 'GET /bank-connections/:id', ['bank-accounts.read'], {
    summary: 'Get a bank connection',
    input: schema.idParams,
    output: one(schema.bankConnectionSchema),
    run: ({ principal, input }, { db }) => service.getConnection(db, principal.teamId, input.id),
  }),
  mutation('bankConnections.create', 'POST /bank-connections', ['bank-accounts.write'], {
    status: 201,
    summary: 'Connect a bank',
    description:
      '`{provider: "bank-a", publicToken}` (exchanged with bank-a) or `{provider: "bank-b", accessToken, enrollmentId}`. The access token is stored encrypted. The connection starts `connected` and its first sync starts at once (SyncConnection workflow). 409 when it is already connected.',
    input: schema.createBankConnectionBody,
    output: one(schema.bankConnectionSchema),
    run: ({ principal, input }, deps) => service.createConnection(deps, principal.teamId, input),
  }),
  mutation('bankConnections.delete', 'DELETE /bank-connections/:id', ['bank-accounts.write'], {
    summary: 'Delete a bank connection',
    description: 'Stops future syncs. Its accounts are kept as unlinked accounts and its transactions stay.',
    input: schema.idParams,
    output: none,
    run: ({ principal, input }, deps) => service.deleteConnection(deps, principal.teamId, input.id),
  }),
  mutation('bankConnections.link', 'POST /bank-connections/link', ['bank-accounts.write'], {
    status: 201,
    summary: 'Start linking a bank',
    description:
      "Opens the provider's link session. bank-a: a Link token (`POST /link/token/create`, with our webhook URL `{PUBLIC_URL}/webhook/bank-a` set, or the sandbox's own base address); Link completes with a `public_token`. bank-b: a Connect enrollment URL; Connect completes with an access token and enrollment id. Either goes to `POST /bank-connections/exchange`.",
    input: schema.linkSessionBody,
    output: one(schema.linkSessionSchema),
    run: ({ principal, input }, deps) => createLinkSession(deps, principal.teamId, input),
  }),
  mutation('bankConnections.exchange', 'POST /bank-connections/exchange', ['bank-accounts.write'], {
    status: 201,
    summary: 'Complete linking a bank',
    description:
      '`{provider: "bank-a", publicToken}` (exchanged for the item\'s access token) or `{provider: "bank-b", accessToken, enrollmentId}`. The provider\'s accounts are read with the token (a token it refuses: 400, nothing is created) and stored with the connection, its institution and its consent expiry (`expiresAt`); the access token is stored encrypted. The first sync starts at once (SyncConnection), the regular sync is scheduled, and the team is notified ahead of the consent\'s expiry. 409 when it is already connected.',
    input: schema.createBankConnectionBody,
    output: one(schema.bankConnectionSchema),
    run: ({ principal, input }, deps) => service.createConnection(deps, principal.teamId, input),
  }),
  mutation('bankConnections.reconnect', 'POST /bank-connections/:id/reconnect', ['bank-accounts.write'], {
    status: 201,
    summary: 'Start reconnecting a bank connection',
    description:
      "A link session in update mode for a `disconnected` connection: bank-a's Link for the item (it keeps its access token), bank-b's Connect for the enrollment. 409 for a connected connection.",
    input: schema.idParams,
    output: one(schema.linkSessionSchema),
    run: ({ principal, input }, deps) => createReconnectSession(deps, principal.teamId, input.id),
  }),
  mutation('bankConnections.completeReconnect', 'POST /bank-connections/:id/reconnect/complete', ['bank-accounts.write'], {
    body: 'data',
    summary: 'Complete reconnecting a bank connection',
    description:
      "After the provider's update flow: the token is checked by reading the accounts (still refused: 409, nothing changes); the connection becomes `connected`, the team is notified it was repaired, its regular sync resumes, its consent expiry is renewed and a sync catches up. bank-b may pass the new `accessToken` Connect returned.",
    input: schema.idParams.extend({ data: schema.reconnectCompleteBody }),
    output: one(schema.bankConnectionSchema),
    run: ({ principal, input }, deps) => completeReconnect(deps, principal.teamId, input.id, input.data),
  }),
  mutation('bankConnections.sync', 'POST /bank-connections/:id/sync', ['bank-accounts.write'], {
    status: 202,
    summary: 'Sync now',
    description:
      'Requests a sync (`manualSync: true`). Requests made while one runs coalesce into at most one more pass. 409 for a disconnected connection.',
    input: schema.idParams,
    output: one(schema.syncStartedSchema),
    run: ({ principal, input }, deps) => service.manualSync(deps, principal.teamId, input.id),
  }),
];
