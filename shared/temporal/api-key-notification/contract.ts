import { workflowContract } from '../contract';

export interface ApiKeyNotificationInput {
  keyId: string;
  teamId: string;
  userId: string;
  keyName: string;
  createdAt: string;
  ipAddress: string | null;
}

export interface ApiKeyNotificationResult {
  messageId: string | null;
}

export type ApiKeyNotificationWorkflow = (input: ApiKeyNotificationInput) => Promise<ApiKeyNotificationResult>;

export const apiKeyNotificationContract = workflowContract<ApiKeyNotificationWorkflow>('apiKeyNotification');

/** One notice per key, however often its start is retried. */
export const apiKeyNotificationId = (keyId: string) => `api-key-notification:${keyId}`;
