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
    // v2: with the re-matching step after new transactions (the v1 history, recorded before it, stays as a fixture).
    name: 'sync-connection-v2',
    activities: {
      syncBankConnection: async () => ({ added: 3, modified: 1, removed: 0 }),
      rematchOpenInboxItems: async () => ({ checked: 1, suggested: 0 }),
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
  {
    name: 'receipt-ingestion',
    activities: {
      sendReaction: async () => undefined,
      ingestReceipt: async () => ({ inboxItemId: 'i1', documentId: 'd1', duplicate: false }),
      extractReceipt: async () => ({ amount: 23.8, currency: 'EUR', date: '2026-07-01', merchant: 'Coffee Corner', taxAmount: 3.8, taxRate: 19 }),
      matchReceipt: async () => ({ outcome: 'suggested', transactionId: 't1', confidence: 0.97, amount: -23.8, currency: 'EUR', date: '2026-07-01', name: 'COFFEE CORNER' }),
      sendMatchSuggestion: async () => undefined,
      decideMatch: async () => 'confirmed',
      sendMessage: async () => undefined,
    },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.start('receiptIngestion', {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1', source: 'messaging', reference: 'm1', mediaId: 'media1', mimeType: 'application/pdf', phoneNumber: '491', messageId: 'm1', decisionTimeoutMs: 600_000 }],
      });
      await new Promise((r) => setTimeout(r, 1500));
      await handle.signal('buttonReply', { action: 'confirm', transactionId: 't1', via: 'chat' });
      return handle.result();
    },
  },
  {
    name: 'sync-exchange-rates',
    activities: { syncExchangeRates: async () => ({ rates: 30, latestDate: '2026-11-20' }) },
    run: (client, { taskQueue, workflowId }) => client.workflow.execute('syncExchangeRates', { taskQueue, workflowId }),
  },
];
