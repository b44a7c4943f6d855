import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import { lastCompleteWeek, type InsightOptions } from './compute';
import type { generateInsightBody, InsightDto } from './schema';
import { announceInsight, getInsight, storeWeeklyInsight } from './service';

/**
 * A week's summary on demand, in the request: a few aggregate queries, cheap enough for a request, so
 * it needs no worker to be up. It takes the same two steps as the WeeklyInsights workflow, both safe to
 * run beside a scheduled run of the same week: the summary is upserted, the notice sent once.
 */
export async function generateInsight(
  db: Db,
  teamId: string,
  body: z.infer<typeof generateInsightBody>,
  options: InsightOptions,
): Promise<InsightDto> {
  let weekStart = body.weekStart;
  if (!weekStart) {
    const team = await Team.query(db).findById(teamId).select('timezone');
    weekStart = lastCompleteWeek(team?.timezone ?? 'UTC');
  }
  const id = await storeWeeklyInsight(db, teamId, weekStart, options);
  await announceInsight(db, teamId, id);
  return getInsight(db, teamId, id);
}
