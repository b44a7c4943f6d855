import { TeamScopedModel } from './base';

/** One HTTP attempt of a delivery and what the endpoint answered. */
export class WebhookDeliveryAttempt extends TeamScopedModel {
  static override tableName = 'webhook_delivery_attempts';
  deliveryId!: string;
  attempt!: number;
  statusCode!: number | null;
  /** The start of the answer, cut to a snippet. */
  responseBody!: string | null;
  durationMs!: number;
  error!: string | null;
}
