import { deleteApiKeyInput, upsertApiKeyInput } from '../../../shared/domain/api-keys/schema';
import { notifyApiKeyCreated } from '../../../shared/domain/api-keys/notify';
import { createApiKey, deleteApiKey, listApiKeys, updateApiKey } from '../../../shared/domain/api-keys/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const apiKeysRouter = ({ db, temporal, logger }: Pick<ApiDeps, 'db' | 'temporal' | 'logger'>) =>
  router({
    get: procedure('apiKeys.get').query(({ ctx }) => listApiKeys(db, ctx.principal.teamId)),
    upsert: procedure('apiKeys.upsert')
      .input(upsertApiKeyInput)
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
    delete: procedure('apiKeys.delete')
      .input(deleteApiKeyInput)
      .mutation(async ({ ctx, input }) => {
        await deleteApiKey(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });
