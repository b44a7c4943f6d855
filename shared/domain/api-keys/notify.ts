import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import type { ApiKeyNotificationInput } from '../../temporal/api-key-notification/contract';
import { startApiKeyNotification } from '../../temporal/api-key-notification/calls';

/**
 * Starts the ApiKeyNotification workflow. Key creation never fails because of it: when Temporal is
 * unreachable the failure is logged (with the key id, never the key) and the key stands.
 */
export async function notifyApiKeyCreated(temporal: TemporalGateway, log: Logger, input: ApiKeyNotificationInput): Promise<string | null> {
  try {
    return await startApiKeyNotification(temporal, input);
  } catch (err) {
    log.error({ err, keyId: input.keyId }, 'could not start the API key notification');
    return null;
  }
}
