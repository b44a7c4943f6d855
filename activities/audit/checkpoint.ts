import { checkpointAuditTrail, previousUtcDay } from '../../shared/domain/audit-events/service';
import type { AuditCheckpointResult } from '../../shared/temporal/audit-checkpoint/contract';
import type { ActivityDeps } from '../deps';

export function auditActivities({ db, config }: ActivityDeps) {
  return {
    /** Seals the team's trail and signs the last hash of `day` (default: the UTC day that just ended). */
    async checkpointAuditTrail({ teamId, day }: { teamId: string; day?: string }): Promise<AuditCheckpointResult> {
      const which = day ?? previousUtcDay(new Date());
      const done = await checkpointAuditTrail(db, teamId, which, config.AUDIT_SIGNING_KEY);
      return { day: which, position: done?.position ?? null, hash: done?.hash ?? null };
    },
  };
}

export type AuditActivities = ReturnType<typeof auditActivities>;
