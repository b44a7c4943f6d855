import { proxyActivities } from '@temporalio/workflow';
import type { ApiKeyActivities } from '../activities/api-keys/notify';
import type { ApiKeyNotificationWorkflow } from '../shared/temporal/api-key-notification/contract';

const { sendApiKeyCreatedEmail } = proxyActivities<ApiKeyActivities>({
  startToCloseTimeout: '30s',
  // A mail server that is down for a while must not lose the notice: keep retrying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/** Tells the account holder that an API key was created, so an unexpected key is noticed. */
export const apiKeyNotification: ApiKeyNotificationWorkflow = async (input) => sendApiKeyCreatedEmail(input);
