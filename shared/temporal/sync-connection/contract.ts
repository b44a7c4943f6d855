import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface SyncConnectionInput {
  connectionId: string;
  teamId: string;
  /** What the passes of the run that continued as new owe: the follow-ups not yet made for them. */
  owed?: { passes: number; added: number; manualSync: boolean };
}

/** What one sync pass did (the syncBankConnection activity's result). */
export interface SyncResult {
  added: number;
  modified: number;
  removed: number;
  skipped?: 'deleted' | 'disconnected';
  /** A request was counted while the pass ran (its run held the lease): another pass is due. Absent before 0109. */
  moreRequested?: boolean;
}

export type SyncConnectionResult = SyncResult & { passes: number };

export interface SyncRequest {
  manualSync: boolean;
}

export interface SyncStatus {
  passes: number;
  pending: boolean;
  totals: SyncResult;
}

/**
 * A manual sync, a schedule, or a webhook for a connection whose run holds no lease signals this; a
 * run in progress just notes that another pass is due.
 */
export const syncRequested = defineSignal<[SyncRequest]>('syncRequested');
export const syncStatus = defineQuery<SyncStatus>('syncStatus');

export type SyncConnectionWorkflow = (input: SyncConnectionInput) => Promise<SyncConnectionResult>;

export const syncConnectionContract = workflowContract<SyncConnectionWorkflow>('syncConnection');

/** One run per connection at a time: requests for a connection that is syncing join that run. */
export const syncConnectionId = (connectionId: string) => `sync-connection:${connectionId}`;
