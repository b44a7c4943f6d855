import { TypedSearchAttributes } from '@temporalio/common';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { workflowIds } from '../../temporal/names';
import { searchAttributeKeys } from '../../temporal/search-attributes';
import type { apiKeyNotification, ApiKeyNotificationInput } from '../../../workflows/api-key-notification';

/**
 * Starts the ApiKeyNotification workflow. Key creation never fails because of it: when Temporal is
 * unreachable the failure is logged (with the key id, never the key) and the key stands.
 */
export async function notifyApiKeyCreated(temporal: TemporalGateway, log: Logger, input: ApiKeyNotificationInput): Promise<string | null> {
  const workflowId = workflowIds.apiKeyNotification(input.keyId);
  try {
    const client = await temporal.client();
    await client.workflow.start<typeof apiKeyNotification>('apiKeyNotification', {
      taskQueue: temporal.options.taskQueue,
      workflowId,
      args: [input],
      typedSearchAttributes: new TypedSearchAttributes([{ key: searchAttributeKeys.TeamId, value: input.teamId }]),
    });
    return workflowId;
  } catch (err) {
    log.error({ err, keyId: input.keyId, workflowId }, 'could not start the API key notification');
    return null;
  }
}
