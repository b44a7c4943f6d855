import { TeamScopedModel } from './base';

/** A tool the assistant ran for the answer, with what it answered (chatToolCallSchema says more). */
export interface ChatToolCall {
  id: string;
  /** The number a figure in the answer cites it by: `[1]`. */
  ref: number;
  name: string;
  arguments: Record<string, unknown>;
  /** null when the tool failed. */
  result: unknown;
  error: string | null;
}

/** A `[ref]` marker in the answer and the tool call its figure came from. */
export interface ChatCitation {
  ref: number;
  toolCallId: string;
  tool: string;
}

export class ChatMessage extends TeamScopedModel {
  static override tableName = 'chat_messages';
  userId!: string | null;
  chatId!: string;
  role!: 'user' | 'assistant' | 'system';
  content!: string;
  toolCalls!: ChatToolCall[];
  citations!: ChatCitation[];

  static override jsonAttributes = ['toolCalls', 'citations'];
}
