import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export type TeamDeletionStage = 'starting' | 'revoking_access' | 'stopping_work' | 'deleting' | 'done';

export interface TeamTableProgress {
  table: string;
  /** Rows of the team in it when the deletion planned its work. */
  total: number;
  deleted: number;
  done: boolean;
}

export interface TeamDeletionProgress {
  teamId: string;
  /** Kept for the last email, once the team row is gone. */
  teamName: string | null;
  workflowId: string;
  stage: TeamDeletionStage;
  deletedRows: number;
  tables: TeamTableProgress[];
  /** Who asked: only they may follow it once the team is gone. */
  requestedBy: string;
}

export interface TeamDeletionInput {
  teamId: string;
  requestedBy: string;
  /** Rows per delete statement. */
  batchSize: number;
  /** Carried over when a long deletion continues as a new run. */
  progress?: TeamDeletionProgress;
}

/** The team's rows in one table, planned: what a table costs to delete and in which order (referencing tables first). */
export interface TeamTablePlan {
  table: string;
  total: number;
}

export const teamDeletionProgress = defineQuery<TeamDeletionProgress>('teamDeletionProgress');

export type TeamDeletionWorkflow = (input: TeamDeletionInput) => Promise<TeamDeletionProgress>;

export const teamDeletionContract = workflowContract<TeamDeletionWorkflow>('teamDeletion');

/** One deletion per team: asking again while it runs finds the same run. */
export const teamDeletionId = (teamId: string) => `team-deletion:${teamId}`;
