import type { TemporalGateway } from '../client';
import { TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import { apiKeyNotificationContract, apiKeyNotificationId, type ApiKeyNotificationInput } from './contract';

/** The key by its name; the requester's address stays in the run's input, not in the list. */
const summaryOf = (input: ApiKeyNotificationInput) => summaryLine('API key created', input.keyName);

/** Starts the notice about a new API key; returns the workflow id. */
export function startApiKeyNotification(temporal: TemporalGateway, input: ApiKeyNotificationInput): Promise<string> {
  return startOnce(temporal, apiKeyNotificationContract, {
    workflowId: apiKeyNotificationId(input.keyId),
    args: [input],
    searchAttributes: [{ key: TeamId, value: input.teamId }],
    summary: summaryOf(input),
  });
}
