import { workflowContract } from '../contract';

export interface ScheduledBankSyncInput {
  connectionId: string;
  teamId: string;
}

/** requested: a sync was asked of SyncConnection; paused: the connection is disconnected; gone: it was deleted. */
export type ScheduledBankSyncOutcome = 'requested' | 'paused' | 'gone';

export type ScheduledBankSyncWorkflow = (input: ScheduledBankSyncInput) => Promise<ScheduledBankSyncOutcome>;

export const scheduledBankSyncContract = workflowContract<ScheduledBankSyncWorkflow>('scheduledBankSync');

/** The connection's schedule; its runs get this id with the scheduled time appended. */
export const bankSyncScheduleId = (connectionId: string) => `sync-connection-schedule:${connectionId}`;
