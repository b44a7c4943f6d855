import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleSpec } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import type { ScheduledStart } from '../start';
import { summaryLine } from '../summary';
import { weeklyInsightsContract, weeklyInsightsScheduleId } from './contract';

// Monday 06:00 where the team is: the week has ended everywhere in its zone, and the summary is there
// before the working day starts.
const specFor = (timeZone: string): ScheduleSpec => ({
  calendars: [{ dayOfWeek: 'MONDAY', hour: 6, comment: 'Monday morning: the week just gone' }],
  timezone: timeZone,
  jitter: '15m',
});

/** Creates the team's weekly schedule, or brings it to the team's current time zone and task queue. */
export async function ensureWeeklyInsightsSchedule(
  temporal: TemporalGateway,
  team: { id: string; name: string; timezone: string | null },
): Promise<'created' | 'updated'> {
  const client = await temporal.client();
  const scheduleId = weeklyInsightsScheduleId(team.id);
  const spec = specFor(team.timezone ?? 'UTC');
  const action: ScheduledStart = {
    type: 'startWorkflow',
    workflowType: weeklyInsightsContract.workflowType,
    workflowId: scheduleId,
    taskQueue: temporal.options.taskQueue,
    args: [{ teamId: team.id }],
    typedSearchAttributes: new TypedSearchAttributes([
      { key: TeamId, value: team.id },
      { key: Stage, value: 'choosing_week' },
    ]),
    staticSummary: summaryLine('Weekly insights', team.name, `Mondays 06:00 ${team.timezone ?? 'UTC'}`),
  };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies: { overlap: 'SKIP', catchupWindow: '1 day' } });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec, action }));
    return 'updated';
  }
}

/** Removes the team's weekly schedule; false when it had none. */
export async function removeWeeklyInsightsSchedule(temporal: TemporalGateway, teamId: string): Promise<boolean> {
  try {
    await (await temporal.client()).schedule.getHandle(weeklyInsightsScheduleId(teamId)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}
