import { z } from 'zod';
import type { ChatCitation as CitationColumn, ChatToolCall as ToolCallColumn } from '../../db/models';
import { pageSize } from '../common/query';
import type { Assert, SameType } from '../common/same-type';

// A conversation's messages as chat_messages keeps them; the assistant (../chat) writes and streams the same shapes.
export const chatToolCallSchema = z
  .object({
    id: z.string().meta({ description: 'Id of the call within the message.' }),
    ref: z.number().int().positive().meta({ description: 'The number a figure in the answer cites it by: `[1]`.' }),
    name: z.string().meta({ description: 'The tool.' }),
    arguments: z.record(z.string(), z.unknown()),
    result: z.unknown().meta({ description: 'What the tool answered (null when it failed).' }),
    error: z.string().nullable().meta({ description: 'Why the tool failed, when it did.' }),
  })
  .meta({ id: 'ChatToolCall', description: 'A tool the assistant ran to answer, with its result: the source of the figures it cites.' });
export type ChatToolCall = z.infer<typeof chatToolCallSchema>;
// chat_messages keeps the calls and citations as the API returns them.
type _ToolCallIsTheColumn = Assert<SameType<ChatToolCall, ToolCallColumn>>;

export const chatCitationSchema = z
  .object({
    ref: z.number().int().positive(),
    toolCallId: z.string(),
    tool: z.string(),
  })
  .meta({ id: 'ChatCitation', description: 'A `[ref]` marker in the answer and the tool call its figure came from.' });
export type ChatCitation = z.infer<typeof chatCitationSchema>;
type _CitationIsTheColumn = Assert<SameType<ChatCitation, CitationColumn>>;

export const chatMessageSchema = z
  .object({
    id: z.uuid(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    toolCalls: z.array(chatToolCallSchema),
    citations: z.array(chatCitationSchema),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessageDto = z.infer<typeof chatMessageSchema>;

export const conversationSchema = z
  .object({
    id: z.uuid(),
    title: z.string().meta({ description: 'The first question, shortened.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatConversation', description: 'A conversation of one user with the assistant, in one team.' });
export type ConversationDto = z.infer<typeof conversationSchema>;

export const conversationWithMessagesSchema = conversationSchema
  .extend({ messages: z.array(chatMessageSchema).meta({ description: 'Oldest first.' }) })
  .meta({ id: 'ChatConversationWithMessages' });

export const conversationIdParams = z.object({ id: z.uuid() });
export const listConversationsQuery = z.object({ cursor: z.string().optional(), pageSize });
