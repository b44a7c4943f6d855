import { ScheduleAlreadyRunning, type Client, type ScheduleSpec } from '@temporalio/client';
import type { ScheduledStart } from './start';
import { summaryLine } from './summary';
import { SYNC_EXCHANGE_RATES_ID, syncExchangeRatesContract } from './sync-exchange-rates/contract';
import { RETENTION_ID, retentionContract, type RetentionInput } from './retention/contract';

export const EXCHANGE_RATES_SCHEDULE_ID = 'exchange-rates-daily';

// The ECB publishes around 16:00 CET; 15:30 UTC is after that in winter and in summer.
const spec: ScheduleSpec = { calendars: [{ hour: 15, minute: 30, comment: 'after the ECB publishes its reference rates' }] };

/**
 * The daily exchange-rate sync as a Temporal Schedule (visible and pausable in the UI). Created
 * once with an immediate first run, so a new installation has rates at once; on later starts the
 * existing schedule is brought up to date (task queue, time) rather than created again.
 */
export async function ensureExchangeRateSchedule(
  client: Client,
  taskQueue: string,
  scheduleId = EXCHANGE_RATES_SCHEDULE_ID,
): Promise<'created' | 'updated'> {
  const action: ScheduledStart = {
    type: 'startWorkflow',
    workflowType: syncExchangeRatesContract.workflowType,
    workflowId: SYNC_EXCHANGE_RATES_ID,
    taskQueue,
    args: [],
    staticSummary: summaryLine('Exchange rates', 'ECB reference rates', 'daily'),
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: 'SKIP', catchupWindow: '1 day' },
      state: { triggerImmediately: true },
    });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec, action }));
    return 'updated';
  }
}

export const RETENTION_SCHEDULE_ID = 'retention-daily';

// At night in Europe, away from the ECB sync and from business hours' traffic.
const retentionSpec: ScheduleSpec = { calendars: [{ hour: 3, minute: 15, comment: 'daily prune by the retention windows' }] };

/**
 * The daily prune (workflow Retention) as a Temporal Schedule, set up as the exchange-rate one is:
 * created once, brought up to date (task queue, time, batch size) on later worker starts. No run
 * at creation: nothing is old enough on a new installation.
 */
export async function ensureRetentionSchedule(
  client: Client,
  taskQueue: string,
  input: RetentionInput,
  scheduleId = RETENTION_SCHEDULE_ID,
): Promise<'created' | 'updated'> {
  const action: ScheduledStart = {
    type: 'startWorkflow',
    workflowType: retentionContract.workflowType,
    workflowId: RETENTION_ID,
    taskQueue,
    args: [input],
    staticSummary: summaryLine('Retention', 'prune by the retention windows', 'daily'),
  };
  try {
    await client.schedule.create({ scheduleId, spec: retentionSpec, action, policies: { overlap: 'SKIP', catchupWindow: '1 day' } });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec: retentionSpec, action }));
    return 'updated';
  }
}
