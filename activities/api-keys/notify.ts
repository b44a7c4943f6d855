import { ApplicationFailure, log } from '@temporalio/activity';
import type { ApiKeyNotificationInput, ApiKeyNotificationResult } from '../../shared/temporal/api-key-notification/contract';
import { findUserContact } from '../../shared/domain/users/service';
import type { ActivityDeps } from '../deps';

export function apiKeyActivities({ db, mailer }: ActivityDeps) {
  return {
    async sendApiKeyCreatedEmail(input: ApiKeyNotificationInput): Promise<ApiKeyNotificationResult> {
      const user = await findUserContact(db, input.userId);
      if (!user) {
        // The user was deleted since: nobody to tell, and retrying will not change that.
        log.warn('api key notification skipped: user not found', { keyId: input.keyId });
        throw ApplicationFailure.nonRetryable(`user ${input.userId} not found`, 'UserNotFound');
      }
      const when = new Date(input.createdAt).toUTCString();
      const ip = input.ipAddress ?? 'unknown';
      const text = [
        `Hello${user.fullName ? ` ${user.fullName}` : ''},`,
        '',
        `A new API key "${input.keyName}" was created for your team.`,
        `Created: ${when}`,
        `Requested from IP address: ${ip}`,
        '',
        'If you did not create this key, delete it in your API key settings right away.',
      ].join('\n');
      const { messageId } = await mailer.send({ to: user.email, subject: `New API key created: ${input.keyName}`, text });
      return { messageId };
    },
  };
}

export type ApiKeyActivities = ReturnType<typeof apiKeyActivities>;
