import { z } from 'zod';
import { chatMessageSchema, chatToolCallSchema, type ChatMessageDto, type ChatToolCall } from '../chat-conversations/schema';
import { timeZone } from '../common/time-zone';

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
