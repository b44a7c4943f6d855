import type { TemporalGateway } from '../client';
import { TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { apiKeyNotificationContract, apiKeyNotificationId, type ApiKeyNotificationInput } from './contract';

/** Starts the notice about a new API key; returns the workflow id. */
export function startApiKeyNotification(temporal: TemporalGateway, input: ApiKeyNotificationInput): Promise<string> {
  return startOnce(temporal, apiKeyNotificationContract, {
    workflowId: apiKeyNotificationId(input.keyId),
    args: [input],
    searchAttributes: [{ key: TeamId, value: input.teamId }],
  });
}
