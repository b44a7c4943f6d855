import { currentTeam, teamSchema, updateCurrentTeam, updateTeamBody } from '../../../shared/domain/teams/current';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const teamRouter = ({ db, config }: Pick<ApiDeps, 'db' | 'config'>) =>
  router({
    current: procedure('teams.read')
      .output(teamSchema)
      .query(({ ctx }) => currentTeam(db, ctx.principal.teamId, config.INBOX_DOMAIN)),
    update: procedure('teams.write')
      .input(updateTeamBody)
      .output(teamSchema)
      .mutation(({ ctx, input }) => updateCurrentTeam(db, ctx.principal.teamId, config.INBOX_DOMAIN, input)),
  });
