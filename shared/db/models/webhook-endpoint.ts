import { TeamScopedModel } from './base';

/** The events an endpoint can subscribe to; shared/domain/webhook-endpoints/event-types.ts says what each one's data holds. */
export type SubscribableEventType =
  | 'transaction.created'
  | 'transaction.updated'
  | 'transaction.deleted'
  | 'bank_connection.connected'
  | 'bank_connection.disconnected'
  | 'inbox.matched'
  | 'invoice.paid'
  | 'invoice.overdue'
  | 'document.processed';

/** Where a team's outgoing webhooks go; the signing secret is sealed with ENCRYPTION_KEY, since it must be read back to sign. */
export class WebhookEndpoint extends TeamScopedModel {
  static override tableName = 'webhook_endpoints';
  url!: string;
  description!: string | null;
  eventTypes!: SubscribableEventType[];
  enabled!: boolean;
  secretEncrypted!: string;
  failingSince!: Date | null;
  disabledAt!: Date | null;
  disabledReason!: string | null;
  updatedAt!: Date;
}
