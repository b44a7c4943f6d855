import { askAndWait } from '../../../shared/domain/chat/assistant';
import { deleteConversation, getConversation, listConversations } from '../../../shared/domain/chat/conversations';
import {
  chatAnswerSchema,
  conversationIdParams,
  conversationSchema,
  conversationWithMessagesSchema,
  listConversationsQuery,
  sendChatBody,
} from '../../../shared/domain/chat/schema';
import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import type { ApiDeps } from '../../deps';
import { takeChatBudget } from '../../chat-budget';
import { procedure, router } from '../trpc';

/** The assistant over tRPC: the same turn as `POST /chat`, answered whole rather than streamed. */
export const chatRouter = ({ db, assistant, logger }: Pick<ApiDeps, 'db' | 'assistant' | 'logger'>) =>
  router({
    send: procedure('chat.write')
      .input(sendChatBody)
      .output(chatAnswerSchema)
      .mutation(async ({ ctx, input }) => {
        await takeChatBudget(assistant, ctx.principal);
        return askAndWait({ db, llm: assistant.llm, log: logger.child({ requestId: ctx.requestId }) }, ctx.principal, input);
      }),
    conversations: procedure('chat.read')
      .input(listConversationsQuery)
      .output(pageOf(conversationSchema))
      .query(({ ctx, input }) => listConversations(db, ctx.principal, input)),
    get: procedure('chat.read')
      .input(conversationIdParams)
      .output(conversationWithMessagesSchema)
      .query(({ ctx, input }) => getConversation(db, ctx.principal, input.id)),
    delete: procedure('chat.write')
      .input(conversationIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteConversation(db, ctx.principal, input.id);
      }),
  });
