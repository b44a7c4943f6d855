import { ask } from '../../shared/domain/chat/assistant';
import { deleteConversation, getConversation, listConversations } from '../../shared/domain/chat/conversations';
import {
  chatEventSchema,
  conversationIdParams,
  conversationSchema,
  conversationWithMessagesSchema,
  listConversationsQuery,
  sendChatBody,
} from '../../shared/domain/chat/schema';
import { takeChatBudget } from '../chat-budget';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import { defineRoute } from './define';
import { events, none, one, page } from './replies';

const TAG = 'Chat';

export const chatRoutes = ({ db, assistant }: Pick<ApiDeps, 'db' | 'assistant'>) => [
  defineRoute({
    method: 'post',
    path: '/chat',
    scopes: ['chat.write'],
    tag: TAG,
    summary: 'Ask the assistant',
    description: [
      'Streams the answer as server-sent events: `conversation` (its id and the stored question), `token` (text as it is written), `tool_call` and `tool_result` (each tool run for the answer and what it returned), and last `message`, the stored answer, whose `[n]` markers cite the tool results its figures come from (`citations`).',
      "The tools call the same services as the API, and only those the caller's scopes allow: `reports.read` for spending, revenue, profit, burn, cash flow and runway; `transactions.read` to search transactions and payments to a merchant; `invoices.read` for unpaid invoices; `inbox.read` for receipts waiting; `documents.read` to search documents; `tracker-entries.read` and `tracker-projects.read` for tracked time.",
      'With LLM_API_URL a model chooses the tools; without it an intent parser answers the common questions and says plainly when it does not understand. Rate limited per user (`CHAT_RATE_LIMIT` per `CHAT_RATE_LIMIT_WINDOW`, a budget that tool calls over MCP at `/mcp` spend too).',
    ].join('\n\n'),
    body: sendChatBody,
    reply: events(chatEventSchema, 'A stream of server-sent events; each `data` is JSON.'),
    handler: async ({ principal, body, ctx }) => {
      await takeChatBudget(assistant, principal);
      return ask({ db, llm: assistant.llm, log: (ctx.state as AppState).log }, principal, body);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/chat/conversations',
    scopes: ['chat.read'],
    tag: TAG,
    summary: 'My conversations',
    description: "The caller's own conversations in this team, newest first.",
    query: listConversationsQuery,
    reply: page(conversationSchema),
    handler: ({ principal, query }) => listConversations(db, principal, query),
  }),
  defineRoute({
    method: 'get',
    path: '/chat/conversations/:id',
    scopes: ['chat.read'],
    tag: TAG,
    summary: 'A conversation with its messages',
    description: 'Oldest message first; each answer with the tool calls behind it and its citations.',
    params: conversationIdParams,
    reply: one(conversationWithMessagesSchema),
    handler: ({ principal, params }) => getConversation(db, principal, params.id),
  }),
  defineRoute({
    method: 'delete',
    path: '/chat/conversations/:id',
    scopes: ['chat.write'],
    tag: TAG,
    summary: 'Delete a conversation',
    params: conversationIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteConversation(db, principal, params.id),
  }),
];
