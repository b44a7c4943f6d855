import { ScheduleNotFoundError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../../shared/db/knex';
import { teamConnectionIds } from '../../shared/domain/bank-connections/scheduled-sync';
import { unendedSeriesIds } from '../../shared/domain/invoice-series/service';
import { revokePendingInvitations } from '../../shared/domain/teams/invitations';
import { invoiceSeriesScheduleId } from '../../shared/temporal/invoice-series/contract';
import { bankSyncScheduleId } from '../../shared/temporal/scheduled-bank-sync/contract';
import { weeklyInsightsScheduleId } from '../../shared/temporal/weekly-insights/contract';
import { removeAuditCheckpointSchedule } from '../../shared/temporal/audit-checkpoint/calls';

/**
 * One kind of work that runs for a team and must stop before its data goes: each stopper ends its
 * kind and says how many it stopped. A feature that starts schedules or long runs for a team adds
 * its stopper to STOPPERS; runs carrying the TeamId search attribute are already covered.
 */
export type TeamWorkStopper = (ctx: { client: Client; db: Db; teamId: string; exceptWorkflowId: string }) => Promise<number>;

/** Every run of the team still going (syncs, receipts waiting for a decision, invitations), found by its TeamId. */
const runningWorkflows: TeamWorkStopper = async ({ client, teamId, exceptWorkflowId }) => {
  let stopped = 0;
  // teamId is a uuid (validated upstream), so it is safe inside the visibility query.
  for await (const run of client.workflow.list({ query: `TeamId = "${teamId}" AND ExecutionStatus = "Running"` })) {
    if (run.workflowId === exceptWorkflowId) continue;
    try {
      await client.workflow.getHandle(run.workflowId, run.runId).terminate('the team is being deleted');
      stopped++;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err; // ended on its own meanwhile
    }
  }
  return stopped;
};

/** Scheduled bank syncs (`sync-connection-schedule:<connectionId>`), wherever a connection has one. */
const bankSyncSchedules: TeamWorkStopper = async ({ client, db, teamId }) => {
  let stopped = 0;
  for (const id of await teamConnectionIds(db, teamId)) {
    try {
      await client.schedule.getHandle(bankSyncScheduleId(id)).delete();
      stopped++;
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  return stopped;
};

/** The weekly summary's schedule (`insights-weekly:<teamId>`). */
const weeklyInsightsSchedule: TeamWorkStopper = async ({ client, teamId }) => {
  try {
    await client.schedule.getHandle(weeklyInsightsScheduleId(teamId)).delete();
    return 1;
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    return 0;
  }
};

/** The audit trail's daily checkpoint (`audit-checkpoint:<teamId>`); the trail itself outlives the team. */
const auditCheckpointSchedule: TeamWorkStopper = async ({ client, teamId }) =>
  (await removeAuditCheckpointSchedule({ client: () => Promise.resolve(client) }, teamId)) ? 1 : 0;

/** Recurring invoice schedules (`invoice-series:<seriesId>`): no invoice is issued for a team being deleted. */
const invoiceSeriesSchedules: TeamWorkStopper = async ({ client, db, teamId }) => {
  let stopped = 0;
  for (const id of await unendedSeriesIds(db, teamId)) {
    try {
      await client.schedule.getHandle(invoiceSeriesScheduleId(id)).delete();
      stopped++;
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  return stopped;
};

/** Invitations still waiting can no longer be accepted (their runs are terminated above). */
const pendingInvitations: TeamWorkStopper = ({ db, teamId }) => revokePendingInvitations(db, teamId);

export const STOPPERS: Record<string, TeamWorkStopper> = {
  runningWorkflows,
  bankSyncSchedules,
  weeklyInsightsSchedule,
  auditCheckpointSchedule,
  invoiceSeriesSchedules,
  pendingInvitations,
};
