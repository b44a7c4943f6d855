import { z } from 'zod';
import type { ChatCitation as CitationColumn, ChatToolCall as ToolCallColumn } from '../../db/models';
import { pageSize } from '../common/query';
import type { Assert, SameType } from '../common/same-type';
import { timeZone } from '../common/time-zone';

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

export const sendChatBody = z
  .object({
    message: z.string().trim().min(1).max(4000).meta({ description: 'The question.' }),
    conversationId: z.uuid().optional().meta({ description: 'Continue this conversation; omit to start one.' }),
    timezone: timeZone
      .optional()
      .meta({ description: 'Where "last month" is meant (IANA). Default: the user\'s time zone, else the team\'s, else UTC.' }),
  })
  .strict()
  .meta({ id: 'SendChatMessage' });
export type SendChatBody = z.infer<typeof sendChatBody>;

export const chatAnswerSchema = z
  .object({ conversationId: z.uuid(), question: chatMessageSchema, answer: chatMessageSchema })
  .meta({ id: 'ChatAnswer' });
export type ChatAnswer = z.infer<typeof chatAnswerSchema>;

/** What `POST /chat` streams, one server-sent event each, in this order: conversation, then tokens and tool calls, then the message. */
export type ChatEvent =
  | { event: 'conversation'; data: { conversationId: string; question: ChatMessageDto } }
  | { event: 'token'; data: { text: string } }
  | { event: 'tool_call'; data: Pick<ChatToolCall, 'id' | 'ref' | 'name' | 'arguments'> }
  | { event: 'tool_result'; data: ChatToolCall }
  | { event: 'message'; data: ChatMessageDto };

export const chatEventSchema = z
  .discriminatedUnion('event', [
    z.object({ event: z.literal('conversation'), data: z.object({ conversationId: z.uuid(), question: chatMessageSchema }) }),
    z.object({ event: z.literal('token'), data: z.object({ text: z.string() }) }),
    z.object({ event: z.literal('tool_call'), data: chatToolCallSchema.pick({ id: true, ref: true, name: true, arguments: true }) }),
    z.object({ event: z.literal('tool_result'), data: chatToolCallSchema }),
    z.object({ event: z.literal('message'), data: chatMessageSchema }),
    z.object({ event: z.literal('error'), data: z.object({ error: z.string(), description: z.string() }) }),
  ])
  .meta({
    id: 'ChatEvent',
    description:
      'One server-sent event: `event:` names it, `data:` is its JSON. `conversation` first; then `token` (text as it is written), `tool_call` and `tool_result`; last `message` (the stored answer), or `error` when the answer failed part way.',
  });
