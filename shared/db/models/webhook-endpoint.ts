import type { SubscribableEventType } from '../../domain/webhook-endpoints/event-types';
import { TeamScopedModel } from './base';

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
