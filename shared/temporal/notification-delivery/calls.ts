import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import { notificationDeliveryContract, notificationDeliveryId, type NotificationDeliveryInput } from './contract';

/** The kind of notice: `Notification email · invoice paid`. */
const summaryOf = (about: { type: string }) => summaryLine('Notification email', about.type.replace(/_/g, ' '));

/** Starts the emails of a notification once; returns the workflow id. */
export function startNotificationDelivery(
  temporal: TemporalGateway,
  input: NotificationDeliveryInput,
  about: { type: string },
): Promise<string> {
  return startOnce(temporal, notificationDeliveryContract, {
    workflowId: notificationDeliveryId(input.notificationId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: Stage, value: 'sending' },
    ],
    summary: summaryOf(about),
  });
}
