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
import { mutation, query } from './declare';
import { file, none, one, page } from './output';

/** An item and the transaction a decision or a manual match is about. */
// Strict as the REST body always was: an unknown field is a 400, not silently dropped.
const decisionInput = inboxIdParams.extend(decisionBody.shape).strict();

const DECISION =
  'Takes the same path as the chat buttons: a waiting ReceiptIngestion workflow gets the decision as its `buttonReply` signal. 409 when there is no such pending suggestion.';

export const inbox = [
  query('inbox.get', {
    rest: 'GET /inbox',
    scopes: ['inbox.read'],
    summary: 'List inbox items',
    description: 'Newest first, keyset-paginated.',
    input: listInboxQuery,
    output: page(inboxItemSchema),
    run: ({ principal, input }, { db }) => listInbox(db, principal.teamId, input),
  }),
  query('inbox.getById', {
    rest: 'GET /inbox/:id',
    scopes: ['inbox.read'],
    summary: 'Get an inbox item',
    input: inboxIdParams,
    output: one(inboxItemSchema),
    run: ({ principal, input }, { db }) => getInboxItem(db, principal.teamId, input.id),
  }),
  mutation('inbox.update', {
    rest: 'PATCH /inbox/:id',
    body: 'data',
    scopes: ['inbox.write'],
    summary: 'Correct or archive an inbox item',
    input: inboxIdParams.extend({ data: updateInboxBody }),
    output: one(inboxItemSchema),
    run: ({ principal, input }, { db }) => updateInboxItem(db, principal.teamId, input.id, input.data),
  }),
  mutation('inbox.delete', {
    rest: 'DELETE /inbox/:id',
    scopes: ['inbox.write'],
    summary: 'Delete an inbox item (soft)',
    input: inboxIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteInboxItem(db, principal.teamId, input.id),
  }),
  mutation('inbox.confirmMatch', {
    rest: 'POST /inbox/:id/confirm',
    status: 202,
    scopes: ['inbox.write'],
    summary: 'Confirm the suggested match',
    description: DECISION,
    input: decisionInput,
    output: one(decisionResultSchema),
    run: async ({ principal, input }, { db, temporal }) => ({
      outcome: await decide(db, temporal, principal.teamId, input.id, input.transactionId, 'confirm'),
    }),
  }),
  mutation('inbox.declineMatch', {
    rest: 'POST /inbox/:id/decline',
    status: 202,
    scopes: ['inbox.write'],
    summary: 'Decline the suggested match',
    description: DECISION,
    input: decisionInput,
    output: one(decisionResultSchema),
    run: async ({ principal, input }, { db, temporal }) => ({
      outcome: await decide(db, temporal, principal.teamId, input.id, input.transactionId, 'decline'),
    }),
  }),
  mutation('inbox.matchTransaction', {
    rest: 'POST /inbox/:id/match',
    scopes: ['inbox.write'],
    summary: 'Match to a transaction by hand',
    input: decisionInput,
    output: one(inboxItemSchema),
    run: ({ principal, input }, { db }) => matchManually(db, principal.teamId, input.id, input.transactionId),
  }),
  query('inbox.file', {
    rest: 'GET /inbox/:id/file',
    restOnly: 'a file download',
    scopes: ['inbox.read'],
    summary: 'Download the stored file',
    description: 'The original bytes with their content type (not JSON).',
    input: inboxIdParams,
    output: file('The original file, with its content type and name.'),
    run: async ({ principal, input }, { db, storage }) => {
      const found = await getInboxFile(db, storage, principal.teamId, input.id);
      return { body: found.bytes, mimeType: found.mimeType, fileName: found.name, size: found.bytes.length };
    },
  }),
];
