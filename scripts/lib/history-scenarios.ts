import type { Client } from '@temporalio/client';

/**
 * One scenario per workflow path worth pinning: mocked activities (a history records only their
 * results) and how to drive the run (start, signals) to the end.
 */
export interface HistoryScenario {
  name: string;
  activities: Record<string, (...args: any[]) => Promise<unknown>>;
  run(client: Client, ids: { taskQueue: string; workflowId: string }): Promise<unknown>;
}

export const SCENARIOS: HistoryScenario[] = [
  {
    name: 'api-key-notification',
    activities: { sendApiKeyCreatedEmail: async () => ({ messageId: '<recorded@finops.local>' }) },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute('apiKeyNotification', {
        taskQueue,
        workflowId,
        args: [{ keyId: 'k1', teamId: 't1', userId: 'u1', keyName: 'recorded', createdAt: '2026-11-22T00:00:00.000Z', ipAddress: '192.0.2.1' }],
      }),
  },
  {
    name: 'sync-connection',
    activities: {
      syncBankConnection: async () => ({ added: 3, modified: 1, removed: 0 }),
    },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.signalWithStart('syncConnection', {
        taskQueue,
        workflowId,
        args: [{ connectionId: 'c1', teamId: 't1' }],
        signal: 'syncRequested',
        signalArgs: [{ manualSync: true }],
      });
      return handle.result();
    },
  },
];
