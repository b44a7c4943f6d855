import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import type { Logger } from '../../logger';
import { ensureAuditCheckpointSchedule } from '../../temporal/audit-checkpoint/calls';
import type { TemporalGateway } from '../../temporal/client';
import { reconcileEach, type Reconciled } from '../../temporal/reconcile';

/**
 * After a team is created: its AuditCheckpoint schedule signs the day's last hash every night. Never
 * fails the request: an unreachable Temporal is logged, and the worker's start-up pass
 * (scheduleEveryTeamCheckpoint) brings the schedule in line.
 */
export function keepAuditCheckpointScheduled(temporal: TemporalGateway, log: Pick<Logger, 'error'>) {
  return async <T extends { id: string; name: string }>(team: T): Promise<T> => {
    try {
      await ensureAuditCheckpointSchedule(temporal, team);
    } catch (err) {
      log.error({ err, teamId: team.id }, 'could not schedule the audit checkpoints');
    }
    return team;
  };
}

/** Every team's checkpoint schedule; at worker start, for teams made while Temporal was away or outside the API. */
export async function scheduleEveryTeamCheckpoint(db: Db, temporal: TemporalGateway, signal?: AbortSignal): Promise<Reconciled> {
  const teams = await Team.query(db).whereNull('deletionRequestedAt').select('id', 'name');
  return reconcileEach(teams, (team) => ensureAuditCheckpointSchedule(temporal, team), signal);
}
