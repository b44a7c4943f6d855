import { TeamScopedModel } from './base';

export class Notification extends TeamScopedModel {
  static override tableName = 'notifications';
  static override jsonAttributes = ['metadata'];
  userId!: string | null;
  type!: string;
  priority!: number;
  status!: 'unread' | 'read' | 'archived';
  source!: 'system' | 'user';
  metadata!: Record<string, unknown>;
}
