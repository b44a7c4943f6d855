import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

/** What the daily prune removes, one kind at a time, in this order. */
export const RETENTION_KINDS = [
  'webhook_payloads',
  'delivery_attempts',
  'read_notifications',
  'idempotency_keys',
  'invoice_links',
  'authorization_codes',
  'oauth_tokens',
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

export type RetentionStage = 'starting' | RetentionKind | 'done';

export interface RetentionProgress {
  stage: RetentionStage;
  /** Rows removed (or, for webhook payloads, emptied) per kind so far; a kind not reached yet is absent. */
  removed: Partial<Record<RetentionKind, number>>;
  total: number;
}

export interface RetentionInput {
  /** Rows per statement: each batch is one short statement, so no prune holds locks or a connection for long. */
  batchSize: number;
}

export type RetentionWorkflow = (input: RetentionInput) => Promise<RetentionProgress>;

export const retentionContract = workflowContract<RetentionWorkflow>('retention');

export const retentionProgress = defineQuery<RetentionProgress>('retentionProgress');

/** The schedule's runs; the schedule adds the start time to it. */
export const RETENTION_ID = 'retention';
