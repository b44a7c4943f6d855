import { proxyActivities } from '@temporalio/workflow';
import type { BankingActivities } from '../activities/banking/sync';
import type { ScheduledBankSyncWorkflow } from '../shared/temporal/scheduled-bank-sync/contract';

const { requestScheduledSync } = proxyActivities<BankingActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 10 },
});

/**
 * ScheduledBankSync: started by the connection's schedule (`sync-connection-schedule:<connectionId>`)
 * every few hours. Asks SyncConnection for a sync by signal-with-start, so it coalesces with the
 * webhook-driven ones; a disconnected connection pauses its schedule, a deleted one removes it.
 */
export const scheduledBankSync: ScheduledBankSyncWorkflow = (input) => requestScheduledSync(input);
