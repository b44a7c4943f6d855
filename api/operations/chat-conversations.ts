import { deleteConversation, getConversation, listConversations } from '../../shared/domain/chat-conversations/service';
import * as schema from '../../shared/domain/chat-conversations/schema';
import { mutation, none, one, page, query } from './declare';

export const chatConversations = [
  query('chatConversations.get', 'GET /chat/conversations', ['chat.read'], {
    formerly: ['chat.conversations'],
    summary: 'My conversations',
    description: "The caller's own conversations in this team, newest first.",
    input: schema.listConversationsQuery,
    output: page(schema.conversationSchema),
    run: ({ principal, input }, { db }) => listConversations(db, principal, input),
  }),
  query('chatConversations.getById', 'GET /chat/conversations/:id', ['chat.read'], {
    formerly: ['chat.get'],
    summary: 'A conversation with its messages',
    description: 'Oldest message first; each answer with the tool calls behind it and its citations.',
    input: schema.conversationIdParams,
    output: one(schema.conversationWithMessagesSchema),
    run: ({ principal, input }, { db }) => getConversation(db, principal, input.id),
  }),
  mutation('chatConversations.delete', 'DELETE /chat/conversations/:id', ['chat.write'], {
    formerly: ['chat.delete'],
    summary: 'Delete a conversation',
    input: schema.conversationIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteConversation(db, principal, input.id),
  }),
];
