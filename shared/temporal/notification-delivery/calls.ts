import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { notificationDeliveryContract, notificationDeliveryId, type NotificationDeliveryInput } from './contract';

/** Starts the emails of a notification once; returns the workflow id. */
export function startNotificationDelivery(temporal: TemporalGateway, input: NotificationDeliveryInput): Promise<string> {
  return startOnce(temporal, notificationDeliveryContract, {
    workflowId: notificationDeliveryId(input.notificationId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: Stage, value: 'sending' },
    ],
  });
}
