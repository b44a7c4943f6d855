import {
  authorizedApplications,
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  regenerateSecret,
  revokeAccess,
  updateApplication,
} from '../../../shared/domain/oauth/applications';
import { createOAuthApplicationInput, idInput, revokeAccessInput, updateOAuthApplicationInput } from '../../../shared/domain/oauth/schema';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const oauthApplicationsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    list: procedure('oauthApplications.list').query(({ ctx }) => listApplications(db, ctx.principal.teamId)),
    get: procedure('oauthApplications.get').input(idInput).query(({ ctx, input }) => getApplication(db, ctx.principal.teamId, input.id)),
    create: procedure('oauthApplications.create').input(createOAuthApplicationInput).mutation(({ ctx, input }) => createApplication(db, ctx.principal, input)),
    update: procedure('oauthApplications.update').input(updateOAuthApplicationInput).mutation(({ ctx, input }) => updateApplication(db, ctx.principal, input)),
    delete: procedure('oauthApplications.delete')
      .input(idInput)
      .mutation(async ({ ctx, input }) => {
        await deleteApplication(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
    regenerateSecret: procedure('oauthApplications.regenerateSecret').input(idInput).mutation(({ ctx, input }) => regenerateSecret(db, ctx.principal.teamId, input.id)),
    authorized: procedure('oauthApplications.authorized').query(({ ctx }) => authorizedApplications(db, ctx.principal)),
    revokeAccess: procedure('oauthApplications.revokeAccess').input(revokeAccessInput).mutation(({ ctx, input }) => revokeAccess(db, ctx.principal, input.applicationId)),
  });
