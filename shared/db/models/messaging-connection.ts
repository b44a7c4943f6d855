import { TeamScopedModel } from './base';

export class MessagingConnection extends TeamScopedModel {
  static override tableName = 'messaging_connections';
  phoneNumber!: string;
}
