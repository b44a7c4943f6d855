/* eslint-disable @typescript-eslint/require-await -- activity stand-ins: async so each returns a promise as an activity does, with nothing to await */
import type { Client } from '@temporalio/client';
import { apiKeyNotificationContract, type ApiKeyNotificationWorkflow } from '../../shared/temporal/api-key-notification/contract';
import { buttonReply, receiptIngestionContract, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';
import {
  syncConnectionContract,
  syncRequested,
  type SyncConnectionWorkflow,
  type SyncRequest,
} from '../../shared/temporal/sync-connection/contract';
import { syncExchangeRatesContract, type SyncExchangeRatesWorkflow } from '../../shared/temporal/sync-exchange-rates/contract';
import { reEncryptContract, type ReEncryptWorkflow } from '../../shared/temporal/re-encrypt/contract';
import { retentionContract, type RetentionWorkflow } from '../../shared/temporal/retention/contract';
import { sendChatMessageContract, type SendChatMessageWorkflow } from '../../shared/temporal/send-chat-message/contract';
import {
  invitationAccepted,
  invitationContract,
  invitationStage,
  type InvitationWorkflow,
} from '../../shared/temporal/invitation/contract';
import { teamDeletionContract, type TeamDeletionWorkflow } from '../../shared/temporal/team-deletion/contract';
import { notificationDeliveryContract, type NotificationDeliveryWorkflow } from '../../shared/temporal/notification-delivery/contract';
import { documentProcessingContract, type DocumentProcessingWorkflow } from '../../shared/temporal/document-processing/contract';
import { weeklyInsightsContract, type WeeklyInsightsWorkflow } from '../../shared/temporal/weekly-insights/contract';
import { auditCheckpointContract, type AuditCheckpointWorkflow } from '../../shared/temporal/audit-checkpoint/contract';
import {
  invoiceChanged,
  invoiceLifecycleContract,
  type InvoiceLifecycleWorkflow,
  type InvoiceStepPlan,
} from '../../shared/temporal/invoice-lifecycle/contract';
import { recurringInvoiceContract, type RecurringInvoiceWorkflow } from '../../shared/temporal/invoice-series/contract';
import { scheduledBankSyncContract, type ScheduledBankSyncWorkflow } from '../../shared/temporal/scheduled-bank-sync/contract';
import { exportTransactionsContract, type ExportTransactionsWorkflow } from '../../shared/temporal/export-transactions/contract';
import {
  bankConsentContract,
  consentExpiryChanged,
  consentStage,
  type BankConsentWorkflow,
} from '../../shared/temporal/bank-consent/contract';
import { importTransactionsContract, type ImportTransactionsWorkflow } from '../../shared/temporal/import-transactions/contract';
import { applyRulesContract, type ApplyRulesChunk, type ApplyRulesWorkflow } from '../../shared/temporal/apply-rules/contract';
import {
  llmCategoriesContract,
  llmCategoriesRequested,
  type LlmCategoriesPass,
  type LlmCategoriesWorkflow,
} from '../../shared/temporal/llm-categories/contract';
import {
  webhookDeliveryContract,
  type WebhookAttemptReport,
  type WebhookDeliveryInput,
  type WebhookDeliveryWorkflow,
} from '../../shared/temporal/webhook-delivery/contract';

import {
  agentActionContract,
  agentActionStage,
  approveAgentAction,
  type AgentActionWorkflow,
} from '../../shared/temporal/agent-action/contract';

/** An agent action on team t1 that expires this many milliseconds from now. */
const agentActionInput = (expiresInMs: number) => ({
  actionId: 'a1',
  teamId: 't1',
  userId: 'u1',
  operation: 'transactions.bulkUpdate',
  expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
});

/** A manual sync of one connection, as `bankConnections.sync` asks for it: signal-with-start, then its result. */
const manualSyncRun: HistoryScenario['run'] = async (client, { taskQueue, workflowId }) => {
  const handle = await client.workflow.signalWithStart<SyncConnectionWorkflow, [SyncRequest]>(syncConnectionContract.workflowType, {
    taskQueue,
    workflowId,
    args: [{ connectionId: 'c1', teamId: 't1' }],
    signal: syncRequested,
    signalArgs: [{ manualSync: true }],
  });
  return handle.result();
};

/** The plans an invoice's run is given in turn: scheduled, sent, waiting for the due date, then paid (after a signal). */
function invoicePlans(): () => Promise<InvoiceStepPlan> {
  const soon = () => new Date(Date.now() + 1_000).toISOString();
  const plans: (() => InvoiceStepPlan)[] = [
    () => ({ stage: 'scheduled', status: 'scheduled', action: 'send', at: soon() }),
    () => ({ stage: 'sending', status: 'unpaid', action: 'email', at: new Date().toISOString() }),
    () => ({ stage: 'awaiting_payment', status: 'unpaid', action: 'mark-overdue', at: new Date(Date.now() + 3_600_000).toISOString() }),
    () => ({ stage: 'ended', status: 'paid', action: null, at: null }),
  ];
  let turn = 0;
  return async () => plans[Math.min(turn++, plans.length - 1)]();
}

/** An invitation whose reminder and expiry fall this many milliseconds from now. */
const invitationInput = (remindInMs: number, expiresInMs: number) => ({
  invitationId: 'i1',
  teamId: 't1',
  remindAt: new Date(Date.now() + remindInMs).toISOString(),
  expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
});

/**
 * One scenario per workflow path worth pinning: mocked activities (a history records only their
 * results) and how to drive the run (start, signals) to the end.
 */
export interface HistoryScenario {
  name: string;
  activities: Record<string, (...args: never[]) => Promise<unknown>>;
  run(client: Client, ids: { taskQueue: string; workflowId: string }): Promise<unknown>;
}

/** A WebhookDelivery run whose attempts answer `reports` in turn; `continueFrom`, when the relay made the first attempt. */
function webhookDeliveryScenario(
  name: string,
  reports: WebhookAttemptReport[],
  continueFrom?: () => WebhookDeliveryInput['continueFrom'],
): HistoryScenario {
  const left = [...reports];
  return {
    name,
    activities: {
      attemptWebhookDelivery: async () => left.shift(),
      giveUpWebhookDelivery: async () => undefined,
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<WebhookDeliveryWorkflow>(webhookDeliveryContract.workflowType, {
        taskQueue,
        workflowId,
        args: [
          {
            deliveryId: 'd1',
            teamId: 't1',
            endpointId: 'e1',
            retry: { initialIntervalMs: 1000, maxIntervalMs: 4000, windowMs: 60_000, attemptTimeoutMs: 15_000 },
            ...(continueFrom && { continueFrom: continueFrom() }),
          },
        ],
      }),
  };
}

export const SCENARIOS: HistoryScenario[] = [
  {
    // Notified in the app and on one chat number, then approved by the Update, which answers with the result.
    name: 'agent-action',
    activities: {
      notifyAgentAction: async () => ({ phoneNumbers: ['4915100000000'] }),
      sendAgentActionButtons: async () => undefined,
      applyAgentAction: async () => ({ actionId: 'a1', operation: 'transactions.bulkUpdate', result: { matched: 7, changed: 7 } }),
    },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.start<AgentActionWorkflow>(agentActionContract.workflowType, {
        taskQueue,
        workflowId,
        args: [agentActionInput(3_600_000)],
      });
      while ((await handle.query(agentActionStage)).stage !== 'awaiting_approval') await new Promise((r) => setTimeout(r, 200));
      await handle.executeUpdate(approveAgentAction, { args: [{ userId: 'u2', via: 'api' }] });
      return handle.result();
    },
  },
  {
    // Nobody decides: the timer (one second) expires it.
    name: 'agent-action-expired',
    activities: {
      notifyAgentAction: async () => ({ phoneNumbers: [] }),
      closeAgentAction: async () => 'expired',
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<AgentActionWorkflow>(agentActionContract.workflowType, {
        taskQueue,
        workflowId,
        args: [agentActionInput(1000)],
      }),
  },
  {
    name: 'api-key-notification',
    activities: { sendApiKeyCreatedEmail: async () => ({ messageId: '<recorded@finops.local>' }) },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<ApiKeyNotificationWorkflow>(apiKeyNotificationContract.workflowType, {
        taskQueue,
        workflowId,
        args: [
          { keyId: 'k1', teamId: 't1', userId: 'u1', keyName: 'recorded', createdAt: '2026-11-22T00:00:00.000Z', ipAddress: '192.0.2.1' },
        ],
      }),
  },
  {
    // v3: with the invoice payment matching after new transactions (the v1 and v2 histories stay as fixtures).
    name: 'sync-connection-v3',
    activities: {
      syncBankConnection: async () => ({ added: 3, modified: 1, removed: 0 }),
      rematchOpenInboxItems: async () => ({ checked: 1, suggested: 0 }),
      matchInvoicePayments: async () => ({ transactions: 1, paid: 1, suggested: 0 }),
    },
    run: manualSyncRun,
  },
  {
    // v4: the connection's lease (0109): a pass that saw a counted request, one more pass, the
    // follow-ups for both beside a release refused by a request and the last pass, then its own.
    name: 'sync-connection-v4',
    activities: (() => {
      const passes = [
        { added: 3, modified: 1, removed: 0, moreRequested: true },
        { added: 1, modified: 0, removed: 0, moreRequested: false },
        { added: 0, modified: 0, removed: 0, moreRequested: false },
      ];
      const releases = [false, true];
      return {
        syncBankConnection: async () => passes.shift() ?? { added: 0, modified: 0, removed: 0, moreRequested: false },
        releaseSyncLease: async () => releases.shift() ?? true,
        finishSyncPasses: async () => undefined,
        rematchOpenInboxItems: async () => ({ checked: 1, suggested: 0 }),
        matchInvoicePayments: async () => ({ transactions: 1, paid: 1, suggested: 0 }),
      };
    })(),
    run: manualSyncRun,
  },
  {
    name: 'receipt-ingestion',
    activities: {
      sendReaction: async () => undefined,
      ingestReceipt: async () => ({ inboxItemId: 'i1', documentId: 'd1', duplicate: false }),
      extractReceipt: async () => ({
        amount: 23.8,
        currency: 'EUR',
        date: '2026-07-01',
        merchant: 'Coffee Corner',
        taxAmount: 3.8,
        taxRate: 19,
      }),
      matchReceipt: async () => ({
        outcome: 'suggested',
        transactionId: 't1',
        confidence: 0.97,
        amount: -23.8,
        currency: 'EUR',
        date: '2026-07-01',
        name: 'COFFEE CORNER',
      }),
      sendMatchSuggestion: async () => undefined,
      decideMatch: async () => 'confirmed',
      sendMessage: async () => undefined,
    },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.start<ReceiptIngestionWorkflow>(receiptIngestionContract.workflowType, {
        taskQueue,
        workflowId,
        args: [
          {
            teamId: 't1',
            source: 'messaging',
            reference: 'm1',
            mediaId: 'media1',
            mimeType: 'application/pdf',
            phoneNumber: '491',
            messageId: 'm1',
            decisionTimeoutMs: 600_000,
          },
        ],
      });
      await new Promise((r) => setTimeout(r, 1500));
      await handle.signal(buttonReply, { action: 'confirm', transactionId: 't1', via: 'chat' });
      return handle.result();
    },
  },
  {
    // A chat reply whose first send the provider refuses: the retry sends it.
    name: 'send-chat-message',
    activities: (() => {
      let attempts = 0;
      return {
        sendMessage: async () => {
          if (++attempts === 1) throw new Error('messaging provider unavailable');
        },
      };
    })(),
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<SendChatMessageWorkflow>(sendChatMessageContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ to: '491', text: 'Receipt saved.' }],
      }),
  },
  {
    // Two batches of bank tokens, then one of webhook secrets, one of which no key opens.
    name: 're-encrypt',
    activities: {
      reEncryptBatch: (() => {
        const batches = [
          { nextAfter: '00000000-0000-4000-8000-000000000500', rewritten: 500, unreadable: 0 },
          { nextAfter: null, rewritten: 120, unreadable: 0 },
          { nextAfter: null, rewritten: 41, unreadable: 1 },
        ];
        let call = 0;
        return async () => batches[call++ % batches.length];
      })(),
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<ReEncryptWorkflow>(reEncryptContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ keyId: '5c1f0e8a9b7d6c4e', columns: ['bank-connections', 'webhook-endpoints'] }],
      }),
  },
  {
    name: 'sync-exchange-rates',
    activities: { syncExchangeRates: async () => ({ rates: 30, latestDate: '2026-11-20' }) },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<SyncExchangeRatesWorkflow>(syncExchangeRatesContract.workflowType, { taskQueue, workflowId }),
  },
  {
    // Every kind in turn, some with rows to remove.
    name: 'retention',
    activities: {
      pruneRetained: async ({ kind }: { kind: string }) => (kind === 'webhook_payloads' ? 1200 : kind === 'oauth_tokens' ? 3 : 0),
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<RetentionWorkflow>(retentionContract.workflowType, { taskQueue, workflowId, args: [{ batchSize: 500 }] }),
  },
  {
    // The whole path without an answer: email, reminder, expiry (timers of one and two seconds).
    name: 'invitation',
    activities: {
      sendInvitationEmail: async () => ({ sent: true, status: 'pending' }),
      expireInvitation: async () => 'expired',
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<InvitationWorkflow>(invitationContract.workflowType, {
        taskQueue,
        workflowId,
        args: [invitationInput(1000, 2000)],
      }),
  },
  {
    // Accepted while it waits for the reminder: the API signals; no reminder, no expiry.
    name: 'invitation-accepted',
    activities: { sendInvitationEmail: async () => ({ sent: true, status: 'pending' }) },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.start<InvitationWorkflow>(invitationContract.workflowType, {
        taskQueue,
        workflowId,
        args: [invitationInput(3_600_000, 7_200_000)],
      });
      while ((await handle.query(invitationStage)) !== 'waiting') await new Promise((r) => setTimeout(r, 200));
      await handle.signal(invitationAccepted, { userId: 'u1' });
      return handle.result();
    },
  },
  {
    // Two tables, one of them in two batches.
    name: 'team-deletion',
    activities: (() => {
      let transactionBatches = 0;
      return {
        revokeTeamAccess: async () => ({ teamName: 'Recorded' }),
        stopTeamWork: async () => ({ runningWorkflows: 1, bankSyncSchedules: 0, pendingInvitations: 0 }),
        planTeamDeletion: async () => [
          { table: 'transaction_tags', total: 1 },
          { table: 'transactions', total: 3 },
        ],
        deleteTeamRows: async ({ table }: { table: string }) => (table === 'transactions' ? [2, 1][transactionBatches++] : 1),
        deleteTeamRecord: async () => undefined,
        sendTeamDeletedEmail: async () => undefined,
      };
    })(),
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<TeamDeletionWorkflow>(teamDeletionContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1', requestedBy: 'u1', batchSize: 2 }],
      }),
  },
  {
    // Three recipients: one sent, one sent already by an earlier attempt, one whose user has no address.
    name: 'notification-delivery',
    activities: (() => {
      const outcomes = ['sent', 'skipped', 'failed'];
      return {
        unsentNotificationEmails: async () => ['d1', 'd2', 'd3'],
        sendNotificationEmail: async () => outcomes.shift(),
      };
    })(),
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<NotificationDeliveryWorkflow>(notificationDeliveryContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ notificationId: 'n1', teamId: 't1' }],
      }),
  },
  {
    // A receipt: read, classified, handed to ReceiptIngestion as an abandoned child.
    name: 'document-processing',
    activities: {
      extractDocument: async () => ({ readable: true, chars: 180 }),
      classifyStoredDocument: async () => ({ kind: 'receipt', storageKey: 't1/abc.pdf', mimeType: 'application/pdf', name: 'receipt.pdf' }),
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<DocumentProcessingWorkflow>(documentProcessingContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ documentId: 'd1', teamId: 't1', decisionTimeoutMs: 600_000 }],
      }),
  },
  {
    // A scheduled run: it seals and signs the day that just ended.
    name: 'audit-checkpoint',
    activities: {
      checkpointAuditTrail: async () => ({ day: '2026-11-26', position: 42, hash: 'ab'.repeat(32) }),
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<AuditCheckpointWorkflow>(auditCheckpointContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1' }],
      }),
  },
  {
    // A scheduled run: it chooses the week itself, computes and announces it.
    name: 'weekly-insights',
    activities: {
      weekToSummarise: async () => '2026-11-16',
      computeWeeklyInsight: async () => 'i1',
      announceWeeklyInsight: async () => true,
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<WeeklyInsightsWorkflow>(weeklyInsightsContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1' }],
      }),
  },
  {
    // Scheduled → sent → waiting for the due date → paid, which the API signals.
    name: 'invoice-lifecycle',
    activities: {
      planInvoiceStep: invoicePlans(),
      performInvoiceStep: async (step: { action: string }) => (step.action === 'email' ? 'sent' : 'done'),
    },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.signalWithStart<InvoiceLifecycleWorkflow>(invoiceLifecycleContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1', invoiceId: 'i1' }],
        signal: invoiceChanged,
        signalArgs: [],
      });
      // Paid while it waits for the due date.
      for (;;) {
        const events = (await handle.fetchHistory()).events ?? [];
        if (events.filter((e) => e.activityTaskCompletedEventAttributes).length >= 5) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await handle.signal(invoiceChanged);
      return handle.result();
    },
  },
  {
    // The last period of a series: issued, sent, and the schedule removed.
    name: 'recurring-invoice',
    activities: {
      issueSeriesInvoice: async () => ({ invoiceId: 'i1', skipped: null, last: true }),
      deliverSeriesInvoice: async () => 'sent',
      endInvoiceSeries: async () => true,
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<RecurringInvoiceWorkflow>(recurringInvoiceContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1', seriesId: 's1' }],
      }),
  },
  {
    // A connection's schedule fired: a sync was requested of SyncConnection.
    name: 'scheduled-bank-sync',
    activities: { requestScheduledSync: async () => 'requested' },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<ScheduledBankSyncWorkflow>(scheduledBankSyncContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ connectionId: 'c1', teamId: 't1' }],
      }),
  },
  {
    // An export with an address: written and stored, announced, mailed.
    name: 'export-transactions',
    activities: {
      writeTransactionExport: async () => ({ documentId: 'd1', rowsWritten: 3, receiptsWritten: 1, receiptsMissing: 0 }),
      announceTransactionExport: async () => 'n1',
      emailTransactionExport: async () => 'sent',
      failTransactionExport: async () => undefined,
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<ExportTransactionsWorkflow>(exportTransactionsContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ exportId: 'e1', teamId: 't1' }],
      }),
  },
  {
    // Warned, then the consent is renewed (a reconnect): warned again for the new expiry, then expired.
    name: 'bank-consent',
    activities: { sendConsentNotice: async () => 'sent' },
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.start<BankConsentWorkflow>(bankConsentContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ connectionId: 'c1', teamId: 't1', expiresAt: new Date(Date.now() + 3_000).toISOString(), leadMs: 1_500 }],
      });
      while ((await handle.query(consentStage)) !== 'warned') await new Promise((r) => setTimeout(r, 200));
      await handle.signal(consentExpiryChanged, { expiresAt: new Date(Date.now() + 4_000).toISOString() });
      return handle.result();
    },
  },
  {
    // A statement file read, checked and inserted in one pass (some rows were imported before).
    // import-transactions.*.json holds the two steps of runs started before `single-pass-import`.
    name: 'import-transactions-v2',
    activities: {
      importRows: async () => ({ ok: true, rowsRead: 120, created: 100, skipped: 20 }),
    },
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<ImportTransactionsWorkflow>(importTransactionsContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ importId: 'i1', teamId: 't1' }],
      }),
  },
  // An endpoint that answers 500, then 503, then 200: two waits (1 s, then 2 s) and delivered.
  webhookDeliveryScenario('webhook-delivery', [
    { outcome: 'failed', attempt: 1, statusCode: 500 },
    { outcome: 'failed', attempt: 2, statusCode: 503 },
    { outcome: 'delivered', attempt: 3, statusCode: 200 },
  ]),
  // Handed over by the relay after its own first attempt failed: wait until then, 503 on attempt 2, 200 on attempt 3.
  webhookDeliveryScenario(
    'webhook-delivery-continued',
    [
      { outcome: 'failed', attempt: 2, statusCode: 503 },
      { outcome: 'delivered', attempt: 3, statusCode: 200 },
    ],
    () => ({ attempts: 1, lastStatusCode: 500, nextAttemptAt: new Date(Date.now() + 1000).toISOString() }),
  ),
  {
    // A rule over 2,500 transactions: two chunks, then done.
    name: 'apply-rules',
    activities: (() => {
      const chunks: ApplyRulesChunk[] = [
        { scanned: 2_000, matched: 300, changed: 250, last: { date: '2026-03-01', id: 'x1' }, done: false },
        { scanned: 2_500, matched: 380, changed: 310, last: { date: '2026-06-30', id: 'x2' }, done: true },
      ];
      return {
        markRuleRunRunning: async () => ({ dryRun: false }),
        applyRulesChunk: async () => chunks.shift(),
        finishRuleRun: async () => undefined,
      };
    })(),
    run: (client, { taskQueue, workflowId }) =>
      client.workflow.execute<ApplyRulesWorkflow>(applyRulesContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ runId: 'r1', teamId: 't1' }],
      }),
  },
  {
    // A sync's request: a full pass with rows left, then the rest.
    name: 'llm-categories',
    activities: (() => {
      const passes: LlmCategoriesPass[] = [
        { asked: 200, applied: 150, suggested: 20, more: true },
        { asked: 3, applied: 1, suggested: 1, more: false },
      ];
      return { categoriseWithLlm: async () => passes.shift() };
    })(),
    run: async (client, { taskQueue, workflowId }) => {
      const handle = await client.workflow.signalWithStart<LlmCategoriesWorkflow>(llmCategoriesContract.workflowType, {
        taskQueue,
        workflowId,
        args: [{ teamId: 't1' }],
        signal: llmCategoriesRequested,
        signalArgs: [],
      });
      return handle.result();
    },
  },
];
