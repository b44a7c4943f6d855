import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface WeeklyInsightsInput {
  teamId: string;
  /** The Monday of the week to summarise; the schedule leaves it out: the last complete week where the team is. */
  weekStart?: string;
}

export type WeeklyInsightsStage = 'choosing_week' | 'computing' | 'announcing' | 'completed';

export interface WeeklyInsightsProgress {
  stage: WeeklyInsightsStage;
  weekStart: string | null;
  insightId: string | null;
  /** This run sent the week's notification (false when an earlier run of the same week had). */
  announced: boolean;
}

export const weeklyInsightsProgress = defineQuery<WeeklyInsightsProgress>('weeklyInsightsProgress');

export type WeeklyInsightsWorkflow = (input: WeeklyInsightsInput) => Promise<WeeklyInsightsProgress>;

export const weeklyInsightsContract = workflowContract<WeeklyInsightsWorkflow>('weeklyInsights');

/** The team's schedule (Monday morning in its time zone); its runs get this id with the scheduled time appended. */
export const weeklyInsightsScheduleId = (teamId: string) => `insights-weekly:${teamId}`;

/** A run for one week started by hand (the Temporal UI or CLI, a test): one per team and week at a time. */
export const weeklyInsightId = (teamId: string, weekStart: string) => `insights:${teamId}:${weekStart}`;
