import { z } from 'zod';
import { decisionBody, inboxEnvelope, inboxIdParams, inboxListSchema, listInboxQuery, updateInboxBody } from '../../shared/domain/inbox/schema';
import { decide, deleteInboxItem, getInboxItem, listInbox, matchManually, updateInboxItem } from '../../shared/domain/inbox/service';
import { notFound } from '../../shared/errors';
import { StorageNotFoundError } from '../../shared/providers/storage';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

const decisionResult = z.object({ data: z.object({ outcome: z.string().meta({ description: '`signalled` (the waiting workflow applies it and replies in chat), `confirmed`, `declined` or `already_handled`.' }) }) });

export const inboxRoutes = (deps: ApiDeps) => {
  const { db, temporal, storage } = deps;
  return [
    defineRoute({
      method: 'get', path: '/inbox', tag: 'Inbox', summary: 'List inbox items', description: 'Newest first, keyset-paginated.',
      query: listInboxQuery, response: inboxListSchema,
      handler: ({ principal, query }) => listInbox(db, principal.teamId, query),
    }),
    defineRoute({
      method: 'get', path: '/inbox/:id', tag: 'Inbox', summary: 'Get an inbox item',
      params: inboxIdParams, response: inboxEnvelope,
      handler: async ({ principal, params }) => ({ data: await getInboxItem(db, principal.teamId, params.id) }),
    }),
    defineRoute({
      method: 'patch', path: '/inbox/:id', tag: 'Inbox', summary: 'Correct or archive an inbox item',
      params: inboxIdParams, body: updateInboxBody, response: inboxEnvelope,
      handler: async ({ principal, params, body }) => ({ data: await updateInboxItem(db, principal.teamId, params.id, body) }),
    }),
    defineRoute({
      method: 'delete', path: '/inbox/:id', tag: 'Inbox', summary: 'Delete an inbox item (soft)',
      params: inboxIdParams, response: z.null(), status: 204,
      handler: ({ principal, params }) => deleteInboxItem(db, principal.teamId, params.id),
    }),
    ...(['confirm', 'decline'] as const).map((action) =>
      defineRoute({
        method: 'post', path: `/inbox/:id/${action}`, tag: 'Inbox', summary: `${action === 'confirm' ? 'Confirm' : 'Decline'} the suggested match`,
        description: 'Takes the same path as the chat buttons: a waiting ReceiptIngestion workflow gets the decision as its `buttonReply` signal. 409 when there is no such pending suggestion.',
        params: inboxIdParams, body: decisionBody, response: decisionResult, status: 202,
        handler: async ({ principal, params, body }) => ({ data: { outcome: await decide(db, temporal, principal.teamId, params.id, body.transactionId, action) } }),
      }),
    ),
    defineRoute({
      method: 'post', path: '/inbox/:id/match', tag: 'Inbox', summary: 'Match to a transaction by hand',
      params: inboxIdParams, body: decisionBody, response: inboxEnvelope,
      handler: async ({ principal, params, body }) => ({ data: await matchManually(db, principal.teamId, params.id, body.transactionId) }),
    }),
    defineRoute({
      method: 'get', path: '/inbox/:id/file', tag: 'Inbox', summary: 'Download the stored file',
      description: 'The original bytes with their content type (not JSON).',
      params: inboxIdParams, response: z.string().meta({ description: 'Binary file.' }),
      handler: async ({ principal, params, ctx }) => {
        const item = await db('inbox_items').where({ teamId: principal.teamId, id: params.id }).whereNot('status', 'deleted').first();
        const doc = item?.documentId ? await db('documents').where({ teamId: principal.teamId, id: item.documentId }).first() : null;
        if (!doc) throw notFound(`No file for inbox item ${params.id}`);
        const bytes = await storage.get(doc.storageKey).catch((err) => {
          if (err instanceof StorageNotFoundError) throw notFound(`The file of inbox item ${params.id} is missing from storage`);
          throw err;
        });
        ctx.type = doc.mimeType;
        ctx.attachment(doc.name);
        return bytes;
      },
    }),
  ];
};
