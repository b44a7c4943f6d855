import {
  decisionBody,
  decisionResultSchema,
  inboxIdParams,
  inboxItemSchema,
  listInboxQuery,
  updateInboxBody,
} from '../../shared/domain/inbox/schema';
import { decide, deleteInboxItem, getInboxItem, listInbox, matchManually, updateInboxItem } from '../../shared/domain/inbox/service';
import { getInboxFile } from '../../shared/domain/inbox/file';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { file, none, one, page } from './replies';

export const inboxRoutes = (deps: ApiDeps) => {
  const { db, temporal, storage } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/inbox',
      scopes: ['inbox.read'],
      tag: 'Inbox',
      summary: 'List inbox items',
      description: 'Newest first, keyset-paginated.',
      query: listInboxQuery,
      reply: page(inboxItemSchema),
      handler: ({ principal, query }) => listInbox(db, principal.teamId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/inbox/:id',
      scopes: ['inbox.read'],
      tag: 'Inbox',
      summary: 'Get an inbox item',
      params: inboxIdParams,
      reply: one(inboxItemSchema),
      handler: ({ principal, params }) => getInboxItem(db, principal.teamId, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/inbox/:id',
      scopes: ['inbox.write'],
      tag: 'Inbox',
      summary: 'Correct or archive an inbox item',
      params: inboxIdParams,
      body: updateInboxBody,
      reply: one(inboxItemSchema),
      handler: ({ principal, params, body }) => updateInboxItem(db, principal.teamId, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/inbox/:id',
      scopes: ['inbox.write'],
      tag: 'Inbox',
      summary: 'Delete an inbox item (soft)',
      params: inboxIdParams,
      reply: none,
      handler: ({ principal, params }) => deleteInboxItem(db, principal.teamId, params.id),
    }),
    ...(['confirm', 'decline'] as const).map((action) =>
      defineRoute({
        method: 'post',
        path: `/inbox/:id/${action}`,
        scopes: ['inbox.write'],
        tag: 'Inbox',
        summary: `${action === 'confirm' ? 'Confirm' : 'Decline'} the suggested match`,
        description:
          'Takes the same path as the chat buttons: a waiting ReceiptIngestion workflow gets the decision as its `buttonReply` signal. 409 when there is no such pending suggestion.',
        params: inboxIdParams,
        body: decisionBody,
        reply: one(decisionResultSchema),
        status: 202,
        handler: async ({ principal, params, body }) => ({
          outcome: await decide(db, temporal, principal.teamId, params.id, body.transactionId, action),
        }),
      }),
    ),
    defineRoute({
      method: 'post',
      path: '/inbox/:id/match',
      scopes: ['inbox.write'],
      tag: 'Inbox',
      summary: 'Match to a transaction by hand',
      params: inboxIdParams,
      body: decisionBody,
      reply: one(inboxItemSchema),
      handler: ({ principal, params, body }) => matchManually(db, principal.teamId, params.id, body.transactionId),
    }),
    defineRoute({
      method: 'get',
      path: '/inbox/:id/file',
      scopes: ['inbox.read'],
      tag: 'Inbox',
      summary: 'Download the stored file',
      description: 'The original bytes with their content type (not JSON).',
      params: inboxIdParams,
      reply: file('The original file, with its content type and name.'),
      handler: async ({ principal, params }) => {
        const found = await getInboxFile(db, storage, principal.teamId, params.id);
        return { body: found.bytes, mimeType: found.mimeType, fileName: found.name, size: found.bytes.length };
      },
    }),
  ];
};
