import { BaseModel } from './base';

export type WebhookProvider = 'bank-a' | 'bank-b' | 'messaging' | 'inbox' | 'payments' | 'subscriptions';

/** Not team-scoped at arrival: the team is known only once the event names a known connection. */
export class WebhookEvent extends BaseModel {
  static override tableName = 'webhook_events';
  teamId!: string | null;
  provider!: WebhookProvider;
  eventKey!: string;
  eventType!: string;
  outcome!: 'received' | 'processed' | 'ignored' | 'failed';
  workflowId!: string | null;
  error!: string | null;
  receivedAt!: string;
  processedAt!: string | null;
}
