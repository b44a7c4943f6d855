import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface NotificationDeliveryInput {
  notificationId: string;
  teamId: string;
}

export type NotificationDeliveryStage = 'sending' | 'done';

export interface NotificationDeliveryProgress {
  stage: NotificationDeliveryStage;
  /** Emails queued for the notification when the run looked. */
  total: number;
  sent: number;
  /** Not sent by this run: sent already (by an attempt cut off after its mail went out), or no longer due (the member left). */
  skipped: number;
  /** Recipients that cannot be mailed (the user has gone). */
  failed: number;
}

/** What one email activity did. */
export type NotificationEmailOutcome = 'sent' | 'skipped' | 'failed';

export const notificationDeliveryProgress = defineQuery<NotificationDeliveryProgress>('notificationDeliveryProgress');

export type NotificationDeliveryWorkflow = (input: NotificationDeliveryInput) => Promise<NotificationDeliveryProgress>;

export const notificationDeliveryContract = workflowContract<NotificationDeliveryWorkflow>('notificationDelivery');

/** One delivery per notification: however often the relay starts it, one run mails its recipients. */
export const notificationDeliveryId = (notificationId: string) => `notification:${notificationId}`;
