import { TeamScopedModel } from './base';

export class ChatConversation extends TeamScopedModel {
  static override tableName = 'chat_conversations';
  userId!: string;
  title!: string;
  updatedAt!: Date;
}
