import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { InsightActivities } from '../activities/insights/weekly';
import { Stage, TeamId } from '../shared/temporal/search-attribute-keys';
import {
  weeklyInsightsProgress,
  type WeeklyInsightsProgress,
  type WeeklyInsightsStage,
  type WeeklyInsightsWorkflow,
} from '../shared/temporal/weekly-insights/contract';

const { weekToSummarise, computeWeeklyInsight, announceWeeklyInsight } = proxyActivities<InsightActivities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
});

/**
 * WeeklyInsights (schedule `insights-weekly:<teamId>`, or `insights:<teamId>:<weekStart>` on demand):
 * choose the week → compute and store its summary → announce it once. Every step can run again
 * (the summary is recomputed in place, the notice is sent only while none was), so a worker lost
 * mid-run leaves one summary and one notice.
 */
export const weeklyInsights: WeeklyInsightsWorkflow = async (input) => {
  const progress: WeeklyInsightsProgress = {
    stage: 'choosing_week',
    weekStart: input.weekStart ?? null,
    insightId: null,
    announced: false,
  };
  const setStage = (stage: WeeklyInsightsStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
  };
  setHandler(weeklyInsightsProgress, () => progress);
  // Whoever started the run (the schedule, an operator), it is found by its team in the Temporal UI.
  upsertSearchAttributes([
    { key: TeamId, value: input.teamId },
    { key: Stage, value: progress.stage },
  ]);

  const weekStart = input.weekStart ?? (await weekToSummarise({ teamId: input.teamId }));
  progress.weekStart = weekStart;

  setStage('computing');
  progress.insightId = await computeWeeklyInsight({ teamId: input.teamId, weekStart });

  setStage('announcing');
  progress.announced = await announceWeeklyInsight({ teamId: input.teamId, insightId: progress.insightId });

  setStage('completed');
  return progress;
};
