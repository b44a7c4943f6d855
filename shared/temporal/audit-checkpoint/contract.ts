import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface AuditCheckpointInput {
  teamId: string;
  /** The UTC day to seal (YYYY-MM-DD); the schedule leaves it out: the day that just ended. */
  day?: string;
}

export type AuditCheckpointStage = 'sealing' | 'completed';

export interface AuditCheckpointProgress {
  stage: AuditCheckpointStage;
  day: string | null;
  /** The chain position and hash the checkpoint signed; null when the team had no entry by then. */
  position: number | null;
  hash: string | null;
}

/** What the checkpoint activity reports; mirrors the domain's checkpoint (audit-events/service.ts). */
export interface AuditCheckpointResult {
  day: string;
  position: number | null;
  hash: string | null;
}

export const auditCheckpointProgress = defineQuery<AuditCheckpointProgress>('auditCheckpointProgress');

export type AuditCheckpointWorkflow = (input: AuditCheckpointInput) => Promise<AuditCheckpointProgress>;

export const auditCheckpointContract = workflowContract<AuditCheckpointWorkflow>('auditCheckpoint');

/** The team's daily schedule; its runs get this id with the scheduled time appended. */
export const auditCheckpointScheduleId = (teamId: string) => `audit-checkpoint:${teamId}`;
