import { Model } from 'objection';

/** Who sends us webhooks: each has its own route, verifier and event keys. */
export const WEBHOOK_PROVIDERS = ['bank-a', 'bank-b', 'messaging', 'inbox', 'payments', 'subscriptions'] as const;
/** `received` until acted on; `failed` is claimed again by a redelivery. */
export const WEBHOOK_EVENT_OUTCOMES = ['received', 'processed', 'ignored', 'failed'] as const;

export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/**
 * Not team-scoped at arrival: the team is known only once the event names a known connection.
 * It has `receivedAt` where other tables have `createdAt`, hence not a BaseModel.
 */
export class WebhookEvent extends Model {
  static override tableName = 'webhook_events';
  static override jsonAttributes = ['payload'];
  id!: string;
  teamId!: string | null;
  provider!: WebhookProvider;
  eventKey!: string;
  eventType!: string;
  outcome!: (typeof WEBHOOK_EVENT_OUTCOMES)[number];
  workflowId!: string | null;
  error!: string | null;
  receivedAt!: Date;
  processedAt!: Date | null;
  /** What acting on the event needs (never a file's bytes); null when it was too large to keep. */
  payload!: unknown;
  attempts!: number;
  nextAttemptAt!: Date | null;
}
