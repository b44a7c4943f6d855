import { generateInsight } from '../../shared/domain/insights/generate';
import { generateInsightBody, insightIdParams, insightSchema, listInsightsQuery } from '../../shared/domain/insights/schema';
import { getInsight, listInsights } from '../../shared/domain/insights/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { one, page } from './replies';

const tag = 'Insights';

export const insightRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/insights',
    scopes: ['insights.read'],
    tag,
    summary: 'List weekly summaries',
    description:
      "Newest week first, keyset-paginated. A summary is made every Monday morning in the team's time zone (and announced as an `insight_ready` notification), or on demand.",
    query: listInsightsQuery,
    reply: page(insightSchema),
    handler: ({ principal, query }) => listInsights(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/insights/:id',
    scopes: ['insights.read'],
    tag,
    summary: 'A weekly summary',
    description: "404 for an id that is not the team's.",
    params: insightIdParams,
    reply: one(insightSchema),
    handler: ({ principal, params }) => getInsight(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/insights',
    scopes: ['insights.read'],
    tag,
    summary: 'Summarise a week now',
    description:
      "Computes the week's summary in the request (default: the last complete week in the team's time zone) and answers with it; a week summarised before is recomputed in place, and announced only the first time. Insights are read-only in the scope model: this derives figures from data the caller may read and changes none, so `insights.read` is enough.",
    body: generateInsightBody,
    reply: one(insightSchema),
    handler: ({ principal, body }) => generateInsight(db, principal.teamId, body),
  }),
];
