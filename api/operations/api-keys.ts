import * as schema from '../../shared/domain/api-keys/schema';
import { issueApiKey } from '../../shared/domain/api-keys/notify';
import { deleteApiKey, listApiKeys, updateApiKey } from '../../shared/domain/api-keys/service';
import { all, mutation, none, one, query, trpcOnly } from './declare';

const CREATED = 'Its secret is in this answer only, and its creator is emailed about it. Scopes never go beyond your own.';

export const apiKeys = [
  query('apiKeys.get', 'GET /api-keys', ['teams.read'], {
    summary: "List the team's API keys",
    description: 'Newest first; the secrets themselves are never listed, only their last four characters.',
    output: all(schema.apiKeySchema),
    run: ({ principal }, { db }) => listApiKeys(db, principal.teamId),
  }),
  mutation('apiKeys.create', 'POST /api-keys', ['teams.write'], {
    status: 201,
    summary: 'Create an API key',
    description: CREATED,
    input: schema.createApiKeyBody,
    output: one(schema.apiKeyWithSecretSchema),
    run: async ({ principal, input, request }, deps) => {
      const { key, data } = await issueApiKey(deps, principal, input, request);
      return { ...data, key };
    },
  }),
  mutation('apiKeys.update', 'PATCH /api-keys/:id', ['teams.write'], {
    body: 'changes',
    summary: 'Rename an API key or change its scopes',
    description: 'Only the fields sent change; the secret stays as it is. Scopes never go beyond your own.',
    input: schema.updateApiKeyInput,
    output: one(schema.apiKeySchema),
    run: ({ principal, input }, { db }) => updateApiKey(db, principal, { id: input.id, ...input.changes }),
  }),
  mutation(
    'apiKeys.upsert',
    trpcOnly('the tRPC form of POST /api-keys and PATCH /api-keys/{id}, kept as the spec names it'),
    ['teams.write'],
    {
      summary: 'Create an API key, or rename it and change its scopes',
      description: `Without \`id\` it creates a key: ${CREATED} With \`id\` only the name and scopes change.`,
      input: schema.upsertApiKeyInput,
      output: one(schema.upsertApiKeyResultSchema),
      run: async ({ principal, input, request }, deps) =>
        input.id
          ? { data: await updateApiKey(deps.db, principal, { id: input.id, name: input.name, scopes: input.scopes }) }
          : issueApiKey(deps, principal, input, request),
    },
  ),
  mutation('apiKeys.delete', 'DELETE /api-keys/:id', ['teams.write'], {
    summary: 'Delete an API key',
    description: 'Requests with it fail from then on.',
    input: schema.deleteApiKeyInput,
    output: none,
    run: ({ principal, input }, { db }) => deleteApiKey(db, principal.teamId, input.id),
  }),
];
