import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

/** The columns of sealed values, in the order ReEncrypt walks them (the domain checks its list against this). */
export type SealedColumnName = 'bank-connections' | 'webhook-endpoints';

export interface ReEncryptInput {
  /** The key the values are sealed under from now on (its id, never the key). */
  keyId: string;
  columns: SealedColumnName[];
}

export interface ReEncryptProgress {
  keyId: string;
  stage: 'rewriting' | 'completed';
  /** The column being walked; null once done. */
  column: SealedColumnName | null;
  rewritten: Record<string, number>;
  /** Values no configured key opens, left as they were. */
  unreadable: Record<string, number>;
}

export const reEncryptProgress = defineQuery<ReEncryptProgress>('reEncryptProgress');

export type ReEncryptWorkflow = (input: ReEncryptInput) => Promise<ReEncryptProgress>;

export const reEncryptContract = workflowContract<ReEncryptWorkflow>('reEncrypt');

/** One run per current key: every worker started with retired keys asks for it, and all find the same run. */
export const reEncryptId = (keyId: string) => `re-encrypt:${keyId}`;
