import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleSpec } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import type { ScheduledStart } from '../start';
import { summaryLine } from '../summary';
import { auditCheckpointContract, auditCheckpointScheduleId } from './contract';

// Just after midnight UTC: the day has ended, and its entries' transactions have (almost always) too.
const SPEC: ScheduleSpec = {
  calendars: [{ hour: 0, minute: 10, comment: 'after each UTC day: seal its last hash' }],
  jitter: '10m',
};

/** Creates the team's daily checkpoint schedule, or brings it to the current task queue and name. */
export async function ensureAuditCheckpointSchedule(
  temporal: TemporalGateway,
  team: { id: string; name: string },
): Promise<'created' | 'updated'> {
  const client = await temporal.client();
  const scheduleId = auditCheckpointScheduleId(team.id);
  const action: ScheduledStart = {
    type: 'startWorkflow',
    workflowType: auditCheckpointContract.workflowType,
    workflowId: scheduleId,
    taskQueue: temporal.options.taskQueue,
    args: [{ teamId: team.id }],
    typedSearchAttributes: new TypedSearchAttributes([
      { key: TeamId, value: team.id },
      { key: Stage, value: 'sealing' },
    ]),
    staticSummary: summaryLine('Audit checkpoint', team.name, 'daily 00:10 UTC'),
  };
  try {
    // A missed day is caught up (a week at most): each day's checkpoint is its own row.
    await client.schedule.create({ scheduleId, spec: SPEC, action, policies: { overlap: 'BUFFER_ONE', catchupWindow: '7 days' } });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec: SPEC, action }));
    return 'updated';
  }
}

/** Removes the team's checkpoint schedule; false when it had none. */
export async function removeAuditCheckpointSchedule(temporal: Pick<TemporalGateway, 'client'>, teamId: string): Promise<boolean> {
  try {
    await (await temporal.client()).schedule.getHandle(auditCheckpointScheduleId(teamId)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}
