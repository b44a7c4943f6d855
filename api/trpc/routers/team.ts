import { currentTeam, teamSchema, updateCurrentTeam, updateTeamBody } from '../../../shared/domain/teams/current';
import { keepWeeklyInsightsScheduled } from '../../../shared/domain/insights/schedule';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const teamRouter = ({ db, config, temporal, logger }: Pick<ApiDeps, 'db' | 'config' | 'temporal' | 'logger'>) =>
  router({
    current: procedure('teams.read')
      .output(teamSchema)
      .query(({ ctx }) => currentTeam(db, ctx.principal.teamId, config.INBOX_DOMAIN)),
    update: procedure('teams.write')
      .input(updateTeamBody)
      .output(teamSchema)
      .mutation(({ ctx, input }) =>
        updateCurrentTeam(db, ctx.principal.teamId, config.INBOX_DOMAIN, input).then(keepWeeklyInsightsScheduled(temporal, logger, input)),
      ),
  });
