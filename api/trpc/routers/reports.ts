import { profitAndLossSchema, reportQuery, runwaySchema, spendingSchema } from '../../../shared/domain/reports/schema';
import { profitAndLoss, runway, spending } from '../../../shared/domain/reports/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const reportsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    profitAndLoss: procedure('reports.read')
      .input(reportQuery)
      .output(profitAndLossSchema)
      .query(({ ctx, input }) => profitAndLoss(db, ctx.principal.teamId, input)),
    spending: procedure('reports.read')
      .input(reportQuery)
      .output(spendingSchema)
      .query(({ ctx, input }) => spending(db, ctx.principal.teamId, input)),
    runway: procedure('reports.read')
      .input(reportQuery)
      .output(runwaySchema)
      .query(({ ctx, input }) => runway(db, ctx.principal.teamId, input)),
  });
