import { proxyActivities } from '@temporalio/workflow';
import type { ApiKeyActivities } from '../activities/api-keys/notify';

export interface ApiKeyNotificationInput {
  keyId: string;
  teamId: string;
  userId: string;
  keyName: string;
  createdAt: string;
  ipAddress: string | null;
}

const { sendApiKeyCreatedEmail } = proxyActivities<ApiKeyActivities>({
  startToCloseTimeout: '30s',
  // A mail server that is down for a while must not lose the notice: keep retrying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/** Tells the account holder that an API key was created, so an unexpected key is noticed. */
export async function apiKeyNotification(input: ApiKeyNotificationInput): Promise<{ messageId: string | null }> {
  return sendApiKeyCreatedEmail(input);
}
