import { ScheduleNotFoundError } from '@temporalio/client';
import type { Db } from '../../db/knex';
import { BankConnection } from '../../db/models';
import type { TemporalGateway } from '../../temporal/client';
import { keepBankSyncScheduled, pauseBankSyncSchedule, removeBankSyncSchedule } from '../../temporal/scheduled-bank-sync/calls';
import type { ScheduledBankSyncInput, ScheduledBankSyncOutcome } from '../../temporal/scheduled-bank-sync/contract';
import { reconcileEach, type Reconciled } from '../../temporal/reconcile';
import { requestSync } from '../../temporal/sync-connection/calls';

/**
 * What a connection's schedule does each time: ask for a sync (coalescing with webhook-driven ones),
 * pause the schedule while the connection is disconnected, remove it once the connection is gone.
 */
export async function requestScheduledSync(
  db: Db,
  temporal: TemporalGateway,
  input: ScheduledBankSyncInput,
): Promise<ScheduledBankSyncOutcome> {
  const conn = await BankConnection.query(db)
    .findOne({ teamId: input.teamId, id: input.connectionId })
    .select('status', 'provider', 'institutionName');
  if (!conn) {
    await removeBankSyncSchedule(temporal, input.connectionId);
    return 'gone';
  }
  if (conn.status === 'disconnected') {
    await pauseBankSyncSchedule(temporal, input.connectionId);
    return 'paused';
  }
  await requestSync(temporal, { ...input, manualSync: false }, conn);
  return 'requested';
}

/**
 * Pauses the schedule right where the connection is marked disconnected, so that no run wakes only
 * to find it broken. Whoever marked it (a bank webhook, which answers 200 whatever happens; a sync)
 * must not fail because Temporal is briefly away: the error is logged, and the schedule's next run
 * pauses it itself (requestScheduledSync above). A connection without a schedule has nothing to pause.
 */
export async function pauseScheduleOfDisconnected(
  deps: { temporal: TemporalGateway; logger: { error(obj: Record<string, unknown>, msg: string): void } },
  connectionId: string,
): Promise<void> {
  await pauseBankSyncSchedule(deps.temporal, connectionId).catch((err: unknown) => {
    if (!(err instanceof ScheduleNotFoundError))
      deps.logger.error({ err, connectionId }, 'could not pause the sync schedule of a disconnected connection; its next run will');
  });
}

/**
 * A schedule for every connected connection (at worker start): connections linked while Temporal was
 * away, or before schedules existed, get theirs. Returns how many were checked.
 */
export async function scheduleEveryConnection(
  db: Db,
  temporal: TemporalGateway,
  everyMs: number,
  signal?: AbortSignal,
): Promise<Reconciled> {
  const connections = await BankConnection.query(db).where({ status: 'connected' }).select('id', 'teamId', 'provider', 'institutionName');
  return reconcileEach(connections, (c) => keepBankSyncScheduled(temporal, { connectionId: c.id, teamId: c.teamId }, c, everyMs), signal);
}

/** Every connection of the team, whatever its status: any of them may have a sync schedule. */
export async function teamConnectionIds(db: Db, teamId: string): Promise<string[]> {
  return (await BankConnection.query(db).where({ teamId }).select('id')).map((c) => c.id);
}
