import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import type { ApiKeyNotificationInput } from '../../temporal/api-key-notification/contract';
import { startApiKeyNotification } from '../../temporal/api-key-notification/calls';
import type { Db } from '../../db/knex';
import type { Principal } from '../auth/principal';
import { createApiKey } from './service';
import type { ApiKeyDto } from './schema';

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

/** Creates a key and tells its creator about it (ApiKeyNotification); the secret is in the answer only. */
export async function issueApiKey(
  deps: { db: Db; temporal: TemporalGateway },
  principal: Principal,
  input: { name: string; scopes: string[] },
  request: { log: Logger; ip: string },
): Promise<{ key: string; data: ApiKeyDto }> {
  const created = await createApiKey(deps.db, principal, input);
  await notifyApiKeyCreated(deps.temporal, request.log, {
    keyId: created.data.id,
    teamId: principal.teamId,
    userId: principal.userId,
    keyName: created.data.name,
    createdAt: created.data.createdAt,
    ipAddress: request.ip || null,
  });
  return created;
}
