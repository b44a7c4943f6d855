import { proposalDeps } from '../../shared/domain/agent-actions/service';
import { ask, askAndWait } from '../../shared/domain/chat/assistant';
import { chatAnswerSchema, chatEventSchema, sendChatBody } from '../../shared/domain/chat/schema';
import { takeChatBudget } from '../chat-budget';
import { events, mutation } from './declare';

/** The assistant: REST streams the turn as server-sent events, tRPC answers it whole. */
export const chat = [
  mutation('chat.send', 'POST /chat', ['chat.write'], {
    summary: 'Ask the assistant',
    description: [
      'Streams the answer as server-sent events: `conversation` (its id and the stored question), `token` (text as it is written), `tool_call` and `tool_result` (each tool run for the answer and what it returned), and last `message`, the stored answer, whose `[n]` markers cite the tool results its figures come from (`citations`).',
      "The tools call the same services as the API, and only those the caller's scopes allow: `reports.read` for spending, revenue, profit, burn, cash flow and runway; `transactions.read` to search transactions and payments to a merchant; `invoices.read` for unpaid invoices; `inbox.read` for receipts waiting; `documents.read` to search documents; `tracker-entries.read` and `tracker-projects.read` for tracked time.",
      'With LLM_API_URL a model chooses the tools; without it an intent parser answers the common questions and says plainly when it does not understand. Rate limited per user (`CHAT_RATE_LIMIT` per `CHAT_RATE_LIMIT_WINDOW`, a budget that tool calls over MCP at `/mcp` spend too).',
    ].join('\n\n'),
    input: sendChatBody,
    output: events(chatEventSchema, 'A stream of server-sent events; each `data` is JSON.'),
    run: async ({ principal, input, request }, { db, assistant, temporal, config }) => {
      await takeChatBudget(assistant, principal);
      return ask({ db, llm: assistant.llm, log: request.log, agent: proposalDeps(temporal, config, request.log) }, principal, input);
    },
    trpc: {
      output: chatAnswerSchema,
      run: async ({ principal, input, request }, { db, assistant, temporal, config }) => {
        await takeChatBudget(assistant, principal);
        return askAndWait(
          { db, llm: assistant.llm, log: request.log, agent: proposalDeps(temporal, config, request.log) },
          principal,
          input,
        );
      },
    },
  }),
];
