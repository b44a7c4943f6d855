import { log } from '@temporalio/activity';
import {
  beginNotificationEmail,
  failNotificationEmail,
  finishNotificationEmail,
  unsentNotificationEmails,
} from '../../shared/domain/notifications/delivery';
import { accountantLinkMessage } from '../../shared/domain/accountant-links/service';
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
      const messageId = `<notification-${deliveryId}@${config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : 'localhost'}>`;
      // An address outside the team gets the one email written for it: an accountant, the export's link.
      if (email.external) {
        const { linkId } = email.metadata as NotificationMetadata['accountant_link_shared'];
        const message =
          email.type === 'accountant_link_shared'
            ? await accountantLinkMessage(
                db,
                { key: config.ENCRYPTION_KEY, publicUrl: config.PUBLIC_URL ?? '' },
                { teamId: email.teamId, linkId, to: email.to },
                messageId,
              )
            : null;
        if (!message) {
          await failNotificationEmail(db, deliveryId, 'the link was revoked or expired before its email went out');
          return 'failed';
        }
        const sent = await mailer.send(message);
        await finishNotificationEmail(db, deliveryId, sent.messageId);
        log.info('accountant link email sent', { deliveryId, linkId });
        return 'sent';
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
      const sent = await mailer.send({ to: email.to, subject: `${email.teamName}: ${title}`, text, messageId });
      await finishNotificationEmail(db, deliveryId, sent.messageId);
      log.info('notification email sent', { deliveryId });
      return 'sent';
    },
  };
}

export type NotificationActivities = ReturnType<typeof notificationActivities>;
