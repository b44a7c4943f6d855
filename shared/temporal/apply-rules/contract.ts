import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface ApplyRulesInput {
  runId: string;
  teamId: string;
}

export type ApplyRulesStage = 'applying' | 'completed' | 'failed';

/** Where a run's keyset walk is: the (date, id) of the last transaction a committed batch read. */
export interface ApplyRulesKey {
  date: string;
  id: string;
}

/** The run's counters after a chunk of batches (all its committed batches so far); `done` once no transaction is left after `last`. */
export interface ApplyRulesChunk {
  scanned: number;
  matched: number;
  changed: number;
  last: ApplyRulesKey | null;
  done: boolean;
}

export interface ApplyRulesProgress {
  runId: string;
  stage: ApplyRulesStage;
  dryRun: boolean;
  scanned: number;
  matched: number;
  /** Changed, or in a dry run, would change. */
  changed: number;
  error: string | null;
}

export const applyRulesProgress = defineQuery<ApplyRulesProgress>('applyRulesProgress');

export type ApplyRulesWorkflow = (input: ApplyRulesInput) => Promise<ApplyRulesProgress>;

export const applyRulesContract = workflowContract<ApplyRulesWorkflow>('applyRules');

/** One run per request to apply a rule: a retried start finds the run the first one started. */
export const applyRulesId = (runId: string) => `apply-rules:${runId}`;
