import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleSpec } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { ConnectionId, TeamId } from '../search-attribute-keys';
import type { ScheduledStart } from '../start';
import { summaryLine } from '../summary';
import { bankSyncScheduleId, scheduledBankSyncContract, type ScheduledBankSyncInput } from './contract';

/** Every `everyMs`, spread by up to a tenth of it (at most 30 minutes) so connections do not all sync at once. */
const specFor = (everyMs: number): ScheduleSpec => ({ intervals: [{ every: everyMs }], jitter: Math.min(everyMs / 10, 30 * 60_000) });

/** Every run the schedule starts is listed as the connection's: `Scheduled sync · First Platypus Bank · bank-a`. */
const summaryOf = (about: { institutionName: string | null; provider: string }) =>
  summaryLine('Scheduled sync', about.institutionName, about.provider);

const PAUSED_NOTE = 'paused while the connection is disconnected';

/**
 * The connection's regular sync, so a webhook that never comes costs hours, not forever: created, or
 * brought to the current interval and unpaused (a connection that works again).
 */
export async function keepBankSyncScheduled(
  temporal: TemporalGateway,
  input: ScheduledBankSyncInput,
  about: { institutionName: string | null; provider: string },
  everyMs: number,
): Promise<void> {
  const client = await temporal.client();
  const scheduleId = bankSyncScheduleId(input.connectionId);
  const spec = specFor(everyMs);
  const action: ScheduledStart = {
    type: 'startWorkflow',
    workflowType: scheduledBankSyncContract.workflowType,
    workflowId: scheduleId,
    taskQueue: temporal.options.taskQueue,
    args: [input],
    typedSearchAttributes: new TypedSearchAttributes([
      { key: TeamId, value: input.teamId },
      { key: ConnectionId, value: input.connectionId },
    ]),
    staticSummary: summaryOf(about),
  };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies: { overlap: 'SKIP', catchupWindow: '1 hour' } });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    const handle = client.schedule.getHandle(scheduleId);
    await handle.update((prev) => ({ ...prev, spec, action }));
    if ((await handle.describe()).state.paused) await handle.unpause('the connection works again');
  }
}

/** A disconnected connection is not synced until it is repaired. */
export async function pauseBankSyncSchedule(temporal: TemporalGateway, connectionId: string): Promise<void> {
  await (await temporal.client()).schedule.getHandle(bankSyncScheduleId(connectionId)).pause(PAUSED_NOTE);
}

/** A repaired connection is synced on its schedule again; nothing to do when it has none (the next worker start makes one). */
export async function resumeBankSyncSchedule(temporal: TemporalGateway, connectionId: string): Promise<void> {
  const handle = (await temporal.client()).schedule.getHandle(bankSyncScheduleId(connectionId));
  try {
    if ((await handle.describe()).state.paused) await handle.unpause('the connection works again');
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** Removes the connection's schedule; false when it had none. */
export async function removeBankSyncSchedule(temporal: TemporalGateway, connectionId: string): Promise<boolean> {
  try {
    await (await temporal.client()).schedule.getHandle(bankSyncScheduleId(connectionId)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}
