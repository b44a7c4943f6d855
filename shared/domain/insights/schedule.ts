import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { reconcileEach, type Reconciled } from '../../temporal/reconcile';
import { ensureWeeklyInsightsSchedule } from '../../temporal/weekly-insights/calls';
import { lastCompleteWeek } from './compute';

/**
 * After a team is created or its time zone changes: its WeeklyInsights schedule runs on Monday morning
 * in its time zone. Given the changes of an update, it calls Temporal only when they name a time zone
 * or a new name (the schedule's runs are listed by the team's name).
 * Never fails the request that changed the team: an unreachable Temporal is logged, and the worker's
 * start-up pass (scheduleEveryTeam) brings the schedule in line.
 */
export function keepWeeklyInsightsScheduled(
  temporal: TemporalGateway,
  log: Pick<Logger, 'error'>,
  changes?: { timezone?: unknown; name?: unknown },
) {
  return async <T extends { id: string; name: string; timezone: string | null }>(team: T): Promise<T> => {
    if (changes && changes.timezone === undefined && changes.name === undefined) return team;
    try {
      await ensureWeeklyInsightsSchedule(temporal, team);
    } catch (err) {
      log.error({ err, teamId: team.id }, 'could not schedule the weekly insights');
    }
    return team;
  };
}

/** Every team's schedule at its current time zone; at worker start, for teams made while Temporal was away or outside the API. */
export async function scheduleEveryTeam(db: Db, temporal: TemporalGateway, signal?: AbortSignal): Promise<Reconciled> {
  const teams = await Team.query(db).whereNull('deletionRequestedAt').select('id', 'name', 'timezone');
  return reconcileEach(teams, (team) => ensureWeeklyInsightsSchedule(temporal, team), signal);
}

/**
 * The week a scheduled run summarises: the Monday of the last complete week in the team's time zone
 * (UTC when it has none). Undefined for a team gone (or going): its schedule is being removed.
 */
export async function scheduledWeekOf(db: Db, teamId: string): Promise<string | undefined> {
  const team = await Team.query(db).findById(teamId).select('timezone', 'deletionRequestedAt');
  if (!team || team.deletionRequestedAt) return undefined;
  return lastCompleteWeek(team.timezone ?? 'UTC');
}
