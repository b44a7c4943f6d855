import * as schema from '../../shared/domain/inbox/schema';
import { decide, deleteInboxItem, getInboxItem, listInbox, matchManually, updateInboxItem } from '../../shared/domain/inbox/service';
import { getInboxFile } from '../../shared/domain/inbox/file';
import { file, mutation, none, one, page, query } from './declare';

/** An item and the transaction a decision or a manual match is about. */
// Strict as the REST body always was: an unknown field is a 400, not silently dropped.
const decisionInput = schema.inboxIdParams.extend(schema.decisionBody.shape).strict();

const DECISION =
  'Takes the same path as the chat buttons: a waiting ReceiptIngestion workflow gets the decision as its `buttonReply` signal. 409 when there is no such pending suggestion.';

export const inbox = [
  query('inbox.get', 'GET /inbox', ['inbox.read'], {
    summary: 'List inbox items',
    description: 'Newest first, keyset-paginated.',
    input: schema.listInboxQuery,
    output: page(schema.inboxItemSchema),
    run: ({ principal, input }, { db }) => listInbox(db, principal.teamId, input),
  }),
  query('inbox.getById', 'GET /inbox/:id', ['inbox.read'], {
    summary: 'Get an inbox item',
    input: schema.inboxIdParams,
    output: one(schema.inboxItemSchema),
    run: ({ principal, input }, { db }) => getInboxItem(db, principal.teamId, input.id),
  }),
  mutation('inbox.update', 'PATCH /inbox/:id', ['inbox.write'], {
    body: 'data',
    summary: 'Correct or archive an inbox item',
    input: schema.inboxIdParams.extend({ data: schema.updateInboxBody }),
    output: one(schema.inboxItemSchema),
    run: ({ principal, input }, { db }) => updateInboxItem(db, principal.teamId, input.id, input.data),
  }),
  mutation('inbox.delete', 'DELETE /inbox/:id', ['inbox.write'], {
    summary: 'Delete an inbox item (soft)',
    input: schema.inboxIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteInboxItem(db, principal.teamId, input.id),
  }),
  mutation('inbox.confirmMatch', 'POST /inbox/:id/confirm', ['inbox.write'], {
    status: 202,
    summary: 'Confirm the suggested match',
    description: DECISION,
    input: decisionInput,
    output: one(schema.decisionResultSchema),
    run: async ({ principal, input }, { db, temporal }) => ({
      outcome: await decide(db, temporal, principal.teamId, input.id, input.transactionId, 'confirm'),
    }),
  }),
  mutation('inbox.declineMatch', 'POST /inbox/:id/decline', ['inbox.write'], {
    status: 202,
    summary: 'Decline the suggested match',
    description: DECISION,
    input: decisionInput,
    output: one(schema.decisionResultSchema),
    run: async ({ principal, input }, { db, temporal }) => ({
      outcome: await decide(db, temporal, principal.teamId, input.id, input.transactionId, 'decline'),
    }),
  }),
  mutation('inbox.matchTransaction', 'POST /inbox/:id/match', ['inbox.write'], {
    summary: 'Match to a transaction by hand',
    input: decisionInput,
    output: one(schema.inboxItemSchema),
    run: ({ principal, input }, { db }) => matchManually(db, principal.teamId, input.id, input.transactionId),
  }),
  query('inbox.file', 'GET /inbox/:id/file', ['inbox.read'], {
    restOnly: 'a file download',
    summary: 'Download the stored file',
    description: 'The original bytes with their content type (not JSON).',
    input: schema.inboxIdParams,
    output: file('The original file, with its content type and name.'),
    run: async ({ principal, input }, { db, storage }) => {
      const found = await getInboxFile(db, storage, principal.teamId, input.id);
      return { body: found.bytes, mimeType: found.mimeType, fileName: found.name, size: found.bytes.length };
    },
  }),
];
