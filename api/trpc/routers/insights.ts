import { pageOf } from '../../../shared/domain/common/page';
import { generateInsight } from '../../../shared/domain/insights/generate';
import { generateInsightBody, insightIdParams, insightSchema, listInsightsQuery } from '../../../shared/domain/insights/schema';
import { getInsight, listInsights } from '../../../shared/domain/insights/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const insightsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    list: procedure('insights.read')
      .input(listInsightsQuery.prefault({}))
      .output(pageOf(insightSchema))
      .query(({ ctx, input }) => listInsights(db, ctx.principal.teamId, input)),
    getById: procedure('insights.read')
      .input(insightIdParams)
      .output(insightSchema)
      .query(({ ctx, input }) => getInsight(db, ctx.principal.teamId, input.id)),
    generate: procedure('insights.read')
      .input(generateInsightBody.prefault({}))
      .output(insightSchema)
      .mutation(({ ctx, input }) => generateInsight(db, ctx.principal.teamId, input)),
  });
