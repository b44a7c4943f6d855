import type { ChatCitation, ChatToolCall } from '../../domain/chat/schema';
import { TeamScopedModel } from './base';

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
