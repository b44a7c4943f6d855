import { z } from 'zod';
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
import {
  accessRevokedSchema,
  authorizedApplicationSchema,
  createOAuthApplicationInput,
  idInput,
  oauthApplicationSchema,
  oauthApplicationWithSecretSchema,
  revokeAccessInput,
  updateOAuthApplicationInput,
} from '../../../shared/domain/oauth/schema';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const oauthApplicationsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    list: procedure('teams.read')
      .output(z.array(oauthApplicationSchema))
      .query(({ ctx }) => listApplications(db, ctx.principal.teamId)),
    get: procedure('teams.read')
      .input(idInput)
      .output(oauthApplicationSchema)
      .query(({ ctx, input }) => getApplication(db, ctx.principal.teamId, input.id)),
    create: procedure('teams.write')
      .input(createOAuthApplicationInput)
      .output(oauthApplicationWithSecretSchema)
      .mutation(({ ctx, input }) => createApplication(db, ctx.principal, input)),
    update: procedure('teams.write')
      .input(updateOAuthApplicationInput)
      .output(oauthApplicationSchema)
      .mutation(({ ctx, input }) => updateApplication(db, ctx.principal, input)),
    delete: procedure('teams.write')
      .input(idInput)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteApplication(db, ctx.principal.teamId, input.id);
      }),
    regenerateSecret: procedure('teams.write')
      .input(idInput)
      .output(oauthApplicationWithSecretSchema)
      .mutation(({ ctx, input }) => regenerateSecret(db, ctx.principal.teamId, input.id)),
    authorized: procedure('users.read')
      .output(z.array(authorizedApplicationSchema))
      .query(({ ctx }) => authorizedApplications(db, ctx.principal)),
    revokeAccess: procedure('users.write')
      .input(revokeAccessInput)
      .output(accessRevokedSchema)
      .mutation(({ ctx, input }) => revokeAccess(db, ctx.principal, input.applicationId)),
  });
