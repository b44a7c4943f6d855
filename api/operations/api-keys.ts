import { apiKeySchema, deleteApiKeyInput, upsertApiKeyInput, upsertApiKeyResultSchema } from '../../shared/domain/api-keys/schema';
import { notifyApiKeyCreated } from '../../shared/domain/api-keys/notify';
import { createApiKey, deleteApiKey, listApiKeys, updateApiKey } from '../../shared/domain/api-keys/service';
import { all, mutation, none, one, query, trpcOnly } from './declare';

const noRestDoor = trpcOnly('no REST door yet: API keys are managed over tRPC only');

export const apiKeys = [
  query('apiKeys.get', noRestDoor, ['teams.read'], {
    summary: "List the team's API keys",
    description: 'Newest first; the secrets themselves are never listed, only their last four characters.',
    output: all(apiKeySchema),
    run: ({ principal }, { db }) => listApiKeys(db, principal.teamId),
  }),
  mutation('apiKeys.upsert', noRestDoor, ['teams.write'], {
    summary: 'Create an API key, or rename it and change its scopes',
    description:
      'Without `id` it creates a key, whose secret is in this answer only, and emails its creator about it; with `id` only the name and scopes change. Scopes never go beyond your own.',
    input: upsertApiKeyInput,
    output: one(upsertApiKeyResultSchema),
    run: async ({ principal, input, request }, { db, temporal }) => {
      if (input.id) return { data: await updateApiKey(db, principal, { id: input.id, name: input.name, scopes: input.scopes }) };
      const created = await createApiKey(db, principal, input);
      await notifyApiKeyCreated(temporal, request.log, {
        keyId: created.data.id,
        teamId: principal.teamId,
        userId: principal.userId,
        keyName: created.data.name,
        createdAt: created.data.createdAt,
        ipAddress: request.ip || null,
      });
      return created;
    },
  }),
  mutation('apiKeys.delete', noRestDoor, ['teams.write'], {
    summary: 'Delete an API key',
    description: 'Requests with it fail from then on.',
    input: deleteApiKeyInput,
    output: none,
    run: ({ principal, input }, { db }) => deleteApiKey(db, principal.teamId, input.id),
  }),
];
