import { TeamScopedModel } from './base';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'starting', 'running', 'delivered', 'failed'] as const;

/** One event for one subscribed endpoint: the outbox row the relay starts a WebhookDelivery run for. */
export class WebhookDelivery extends TeamScopedModel {
  static override tableName = 'webhook_deliveries';
  endpointId!: string;
  /** The `webhook-id` every attempt of it is signed with. */
  eventId!: string;
  eventType!: string;
  /** The JSON body as sent, kept as text so every attempt signs the same bytes. */
  payload!: string;
  status!: (typeof WEBHOOK_DELIVERY_STATUSES)[number];
  /** When the relay (or a replay) took it to start its run; a stale claim is taken again. */
  claimedAt!: Date | null;
  attempts!: number;
  lastStatusCode!: number | null;
  deliveredAt!: Date | null;
  updatedAt!: Date;
}
