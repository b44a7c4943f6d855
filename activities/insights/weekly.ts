import { ApplicationFailure } from '@temporalio/activity';
import { scheduledWeekOf } from '../../shared/domain/insights/schedule';
import { announceInsight, storeWeeklyInsight } from '../../shared/domain/insights/service';
import type { ActivityDeps } from '../deps';

export function insightActivities({ db, config }: ActivityDeps) {
  return {
    /** The Monday of the last complete week in the team's time zone (UTC when it has none). */
    async weekToSummarise({ teamId }: { teamId: string }): Promise<string> {
      const week = await scheduledWeekOf(db, teamId);
      // A team gone (or going) has no week to summarise; its schedule is being removed.
      if (week === undefined) throw ApplicationFailure.nonRetryable(`team ${teamId} not found`, 'TeamNotFound');
      return week;
    },

    async computeWeeklyInsight({ teamId, weekStart }: { teamId: string; weekStart: string }): Promise<string> {
      return storeWeeklyInsight(db, teamId, weekStart, { recurringChangeShare: config.RECURRING_AMOUNT_CHANGE_SHARE });
    },

    async announceWeeklyInsight({ teamId, insightId }: { teamId: string; insightId: string }): Promise<boolean> {
      return announceInsight(db, teamId, insightId);
    },
  };
}

export type InsightActivities = ReturnType<typeof insightActivities>;
