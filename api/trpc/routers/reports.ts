import { reportQuery } from '../../../shared/domain/reports/schema';
import { profitAndLoss, runway, spending } from '../../../shared/domain/reports/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const reportsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    profitAndLoss: procedure('reports.profitAndLoss').input(reportQuery).query(async ({ ctx, input }) => (await profitAndLoss(db, ctx.principal.teamId, input)).data),
    spending: procedure('reports.spending').input(reportQuery).query(async ({ ctx, input }) => (await spending(db, ctx.principal.teamId, input)).data),
    runway: procedure('reports.runway').input(reportQuery).query(async ({ ctx, input }) => (await runway(db, ctx.principal.teamId, input)).data),
  });
