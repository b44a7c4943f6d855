import { deleteConversation, getConversation, listConversations } from '../../shared/domain/chat/conversations';
import {
  conversationIdParams,
  conversationSchema,
  conversationWithMessagesSchema,
  listConversationsQuery,
} from '../../shared/domain/chat/schema';
import { mutation, query } from './declare';
import { none, one, page } from './output';

export const chatConversations = [
  query('chatConversations.get', {
    rest: 'GET /chat/conversations',
    formerly: ['chat.conversations'],
    scopes: ['chat.read'],
    summary: 'My conversations',
    description: "The caller's own conversations in this team, newest first.",
    input: listConversationsQuery,
    output: page(conversationSchema),
    run: ({ principal, input }, { db }) => listConversations(db, principal, input),
  }),
  query('chatConversations.getById', {
    rest: 'GET /chat/conversations/:id',
    formerly: ['chat.get'],
    scopes: ['chat.read'],
    summary: 'A conversation with its messages',
    description: 'Oldest message first; each answer with the tool calls behind it and its citations.',
    input: conversationIdParams,
    output: one(conversationWithMessagesSchema),
    run: ({ principal, input }, { db }) => getConversation(db, principal, input.id),
  }),
  mutation('chatConversations.delete', {
    rest: 'DELETE /chat/conversations/:id',
    formerly: ['chat.delete'],
    scopes: ['chat.write'],
    summary: 'Delete a conversation',
    input: conversationIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteConversation(db, principal, input.id),
  }),
];
