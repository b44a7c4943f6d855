import { log } from '@temporalio/activity';
import {
  beginNotificationEmail,
  failNotificationEmail,
  finishNotificationEmail,
  unsentNotificationEmails,
} from '../../shared/domain/notifications/delivery';
import { messageOf } from '../../shared/domain/notifications/messages';
import type { NotificationMetadata } from '../../shared/domain/notifications/types';
import type { NotificationEmailOutcome } from '../../shared/temporal/notification-delivery/contract';
import type { ActivityDeps } from '../deps';

export function notificationActivities({ db, mailer, config }: ActivityDeps) {
  return {
    unsentNotificationEmails: ({ notificationId }: { notificationId: string }) => unsentNotificationEmails(db, notificationId),

    async sendNotificationEmail({ deliveryId }: { deliveryId: string }): Promise<NotificationEmailOutcome> {
      const email = await beginNotificationEmail(db, deliveryId);
      // Sent by an attempt whose completion was lost with its worker, or the recipient is gone.
      if (!email) return 'skipped';
      if (!email.to) {
        await failNotificationEmail(db, deliveryId, 'the recipient has no email address');
        return 'failed';
      }
      const { title, body } = messageOf(email.type, email.metadata as NotificationMetadata[typeof email.type]);
      const text = [
        `Hello${email.fullName ? ` ${email.fullName}` : ''},`,
        '',
        body,
        '',
        `— ${email.teamName}`,
        '',
        'You get this email because you turned on email for this kind of notification; change it in your notification settings.',
      ].join('\n');
      const { messageId } = await mailer.send({
        to: email.to,
        subject: `${email.teamName}: ${title}`,
        text,
        messageId: `<notification-${deliveryId}@${config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : 'localhost'}>`,
      });
      await finishNotificationEmail(db, deliveryId, messageId);
      log.info('notification email sent', { deliveryId });
      return 'sent';
    },
  };
}

export type NotificationActivities = ReturnType<typeof notificationActivities>;
