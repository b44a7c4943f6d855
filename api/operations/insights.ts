import { generateInsight } from '../../shared/domain/insights/generate';
import { generateInsightBody, insightIdParams, insightSchema, listInsightsQuery } from '../../shared/domain/insights/schema';
import { getInsight, listInsights } from '../../shared/domain/insights/service';
import { mutation, one, page, query } from './declare';

export const insights = [
  query('insights.get', 'GET /insights', ['insights.read'], {
    formerly: ['insights.list'],
    summary: 'List weekly summaries',
    description:
      "Newest week first, keyset-paginated. A summary is made every Monday morning in the team's time zone (and announced as an `insight_ready` notification), or on demand.",
    input: listInsightsQuery,
    output: page(insightSchema),
    run: ({ principal, input }, { db }) => listInsights(db, principal.teamId, input),
  }),
  query('insights.getById', 'GET /insights/:id', ['insights.read'], {
    summary: 'A weekly summary',
    description: "404 for an id that is not the team's.",
    input: insightIdParams,
    output: one(insightSchema),
    run: ({ principal, input }, { db }) => getInsight(db, principal.teamId, input.id),
  }),
  mutation('insights.generate', 'POST /insights', ['insights.read'], {
    summary: 'Summarise a week now',
    description:
      "Computes the week's summary in the request (default: the last complete week in the team's time zone) and answers with it; a week summarised before is recomputed in place, and announced only the first time. Insights are read-only in the scope model: this derives figures from data the caller may read and changes none of it, so `insights.read` is enough; the one write is derived: it detects the recurring payments again first (`GET /recurring-payments`), marking their payments `recurring` as a bank sync would.",
    input: generateInsightBody,
    output: one(insightSchema),
    run: ({ principal, input }, { db, config }) =>
      generateInsight(db, principal.teamId, input, { recurringChangeShare: config.RECURRING_AMOUNT_CHANGE_SHARE }),
  }),
];
