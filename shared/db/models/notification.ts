import type { NOTIFICATION_SOURCES, NOTIFICATION_STATUSES, NotificationType } from '../../domain/notifications/types';
import { TeamScopedModel } from './base';

export class Notification extends TeamScopedModel {
  static override tableName = 'notifications';
  static override jsonAttributes = ['metadata'];
  /** Null: for the whole team. */
  userId!: string | null;
  type!: NotificationType;
  priority!: number;
  status!: (typeof NOTIFICATION_STATUSES)[number];
  source!: (typeof NOTIFICATION_SOURCES)[number];
  metadata!: Record<string, unknown>;
}
