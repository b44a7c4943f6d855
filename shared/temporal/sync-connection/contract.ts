import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface SyncConnectionInput {
  connectionId: string;
  teamId: string;
}

/** What one sync pass did (the syncBankConnection activity's result). */
export interface SyncResult {
  added: number;
  modified: number;
  removed: number;
  skipped?: 'deleted' | 'disconnected';
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

/** Every webhook, manual sync or schedule signals this; a run in progress just notes that another pass is due. */
export const syncRequested = defineSignal<[SyncRequest]>('syncRequested');
export const syncStatus = defineQuery<SyncStatus>('syncStatus');

export type SyncConnectionWorkflow = (input: SyncConnectionInput) => Promise<SyncConnectionResult>;

export const syncConnectionContract = workflowContract<SyncConnectionWorkflow>('syncConnection');

/** One run per connection at a time: requests for a connection that is syncing join that run. */
export const syncConnectionId = (connectionId: string) => `sync-connection:${connectionId}`;
