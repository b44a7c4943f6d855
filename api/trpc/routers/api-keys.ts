import { z } from 'zod';
import { apiKeySchema, deleteApiKeyInput, upsertApiKeyInput, upsertApiKeyResultSchema } from '../../../shared/domain/api-keys/schema';
import { notifyApiKeyCreated } from '../../../shared/domain/api-keys/notify';
import { createApiKey, deleteApiKey, listApiKeys, updateApiKey } from '../../../shared/domain/api-keys/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const apiKeysRouter = ({ db, temporal, logger }: Pick<ApiDeps, 'db' | 'temporal' | 'logger'>) =>
  router({
    get: procedure('teams.read')
      .output(z.array(apiKeySchema))
      .query(({ ctx }) => listApiKeys(db, ctx.principal.teamId)),
    upsert: procedure('teams.write')
      .input(upsertApiKeyInput)
      .output(upsertApiKeyResultSchema)
      .mutation(async ({ ctx, input }) => {
        if (input.id) return { data: await updateApiKey(db, ctx.principal, { id: input.id, name: input.name, scopes: input.scopes }) };
        const created = await createApiKey(db, ctx.principal, input);
        await notifyApiKeyCreated(temporal, logger.child({ requestId: ctx.requestId }), {
          keyId: created.data.id,
          teamId: ctx.principal.teamId,
          userId: ctx.principal.userId,
          keyName: created.data.name,
          createdAt: created.data.createdAt,
          ipAddress: ctx.ip || null,
        });
        return created;
      }),
    delete: procedure('teams.write')
      .input(deleteApiKeyInput)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteApiKey(db, ctx.principal.teamId, input.id);
      }),
  });
