import {
  burnRateSchema,
  cashFlowSchema,
  expensesSchema,
  profitAndLossSchema,
  reportQuery,
  revenueQuery,
  revenueSchema,
  runwaySchema,
  spendingSchema,
} from '../../../shared/domain/reports/schema';
import { burnRate, cashFlow, expenses, profitAndLoss, revenue, runway, spending } from '../../../shared/domain/reports/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const reportsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    profitAndLoss: procedure('reports.read')
      .input(reportQuery)
      .output(profitAndLossSchema)
      .query(({ ctx, input }) => profitAndLoss(db, ctx.principal.teamId, input)),
    revenue: procedure('reports.read')
      .input(revenueQuery)
      .output(revenueSchema)
      .query(({ ctx, input }) => revenue(db, ctx.principal.teamId, input)),
    expenses: procedure('reports.read')
      .input(reportQuery)
      .output(expensesSchema)
      .query(({ ctx, input }) => expenses(db, ctx.principal.teamId, input)),
    spending: procedure('reports.read')
      .input(reportQuery)
      .output(spendingSchema)
      .query(({ ctx, input }) => spending(db, ctx.principal.teamId, input)),
    burnRate: procedure('reports.read')
      .input(reportQuery)
      .output(burnRateSchema)
      .query(({ ctx, input }) => burnRate(db, ctx.principal.teamId, input)),
    cashFlow: procedure('reports.read')
      .input(reportQuery)
      .output(cashFlowSchema)
      .query(({ ctx, input }) => cashFlow(db, ctx.principal.teamId, input)),
    runway: procedure('reports.read')
      .input(reportQuery)
      .output(runwaySchema)
      .query(({ ctx, input }) => runway(db, ctx.principal.teamId, input)),
  });
