import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { AuditActivities } from '../activities/audit/checkpoint';
import {
  auditCheckpointProgress,
  type AuditCheckpointProgress,
  type AuditCheckpointWorkflow,
} from '../shared/temporal/audit-checkpoint/contract';
import { Stage, TeamId } from '../shared/temporal/search-attribute-keys';

const { checkpointAuditTrail } = proxyActivities<AuditActivities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 20 },
});

/**
 * AuditCheckpoint (schedule `audit-checkpoint:<teamId>`): seal the team's audit trail and sign the
 * day's last hash. One step, and a repeat finds the day's checkpoint already written, so a worker lost
 * mid-run leaves exactly one.
 */
export const auditCheckpoint: AuditCheckpointWorkflow = async (input) => {
  const progress: AuditCheckpointProgress = { stage: 'sealing', day: input.day ?? null, position: null, hash: null };
  setHandler(auditCheckpointProgress, () => progress);
  upsertSearchAttributes([
    { key: TeamId, value: input.teamId },
    { key: Stage, value: progress.stage },
  ]);
  const result = await checkpointAuditTrail({ teamId: input.teamId, day: input.day });
  Object.assign(progress, result, { stage: 'completed' });
  upsertSearchAttributes([{ key: Stage, value: 'completed' }]);
  return progress;
};
