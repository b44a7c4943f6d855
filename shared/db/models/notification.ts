import { TeamScopedModel } from './base';

export const NOTIFICATION_STATUSES = ['unread', 'read', 'archived'] as const;
export const NOTIFICATION_SOURCES = ['system', 'user'] as const;

/** Every notification the system writes; shared/domain/notifications/types.ts says what each one's metadata holds. */
export type NotificationType =
  | 'transactions_created'
  | 'pending_transactions_expired'
  | 'inbox_needs_review'
  | 'receipt_matched'
  | 'invoice_paid'
  | 'invoice_refunded'
  | 'invoice_payment_failed'
  | 'invoice_payment_unapplied'
  | 'team_member_joined'
  | 'bank_connection_disconnected'
  | 'bank_connection_reconnected'
  | 'bank_connection_consent_expiring'
  | 'bank_connection_consent_expired'
  | 'document_unreadable'
  | 'api_key_created'
  | 'invoice_overdue'
  | 'invoice_undeliverable'
  | 'invoice_payment_suggested'
  | 'invoice_paid_by_transfer'
  | 'insight_ready'
  | 'export_ready'
  | 'accountant_link_shared'
  | 'webhook_endpoint_disabled'
  | 'agent_action_proposed';

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
