import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as workflows from '../../workflows';
import { apiKeyNotificationContract } from '../../shared/temporal/api-key-notification/contract';
import { notificationDeliveryContract } from '../../shared/temporal/notification-delivery/contract';
import { documentProcessingContract } from '../../shared/temporal/document-processing/contract';
import { invitationContract } from '../../shared/temporal/invitation/contract';
import { teamDeletionContract } from '../../shared/temporal/team-deletion/contract';
import { buttonReply, receiptIngestionContract, stageQuery } from '../../shared/temporal/receipt-ingestion/contract';
import { sendChatMessageContract } from '../../shared/temporal/send-chat-message/contract';
import { syncConnectionContract, syncRequested, syncStatus } from '../../shared/temporal/sync-connection/contract';
import { syncExchangeRatesContract } from '../../shared/temporal/sync-exchange-rates/contract';
import { weeklyInsightsContract } from '../../shared/temporal/weekly-insights/contract';
import { auditCheckpointContract } from '../../shared/temporal/audit-checkpoint/contract';
import { invoiceLifecycleContract } from '../../shared/temporal/invoice-lifecycle/contract';
import { recurringInvoiceContract } from '../../shared/temporal/invoice-series/contract';
import { scheduledBankSyncContract } from '../../shared/temporal/scheduled-bank-sync/contract';
import { exportTransactionsContract } from '../../shared/temporal/export-transactions/contract';
import { bankConsentContract, consentExpiryChanged, consentStage } from '../../shared/temporal/bank-consent/contract';
import { importTransactionsContract } from '../../shared/temporal/import-transactions/contract';
import { webhookDeliveryContract } from '../../shared/temporal/webhook-delivery/contract';
import { agentActionContract } from '../../shared/temporal/agent-action/contract';
import { applyRulesContract } from '../../shared/temporal/apply-rules/contract';
import { reEncryptContract } from '../../shared/temporal/re-encrypt/contract';
import { retentionContract } from '../../shared/temporal/retention/contract';
import { llmCategoriesContract } from '../../shared/temporal/llm-categories/contract';
import { linesMatching, ROOT, tsFiles } from '../support/source-files';

const TEMPORAL = path.join(ROOT, 'shared', 'temporal');

const contracts = {
  'api-key-notification': apiKeyNotificationContract,
  'receipt-ingestion': receiptIngestionContract,
  'send-chat-message': sendChatMessageContract,
  'sync-connection': syncConnectionContract,
  'sync-exchange-rates': syncExchangeRatesContract,
  invitation: invitationContract,
  'team-deletion': teamDeletionContract,
  'notification-delivery': notificationDeliveryContract,
  'document-processing': documentProcessingContract,
  'weekly-insights': weeklyInsightsContract,
  'audit-checkpoint': auditCheckpointContract,
  'invoice-lifecycle': invoiceLifecycleContract,
  'invoice-series': recurringInvoiceContract,
  'scheduled-bank-sync': scheduledBankSyncContract,
  'export-transactions': exportTransactionsContract,
  'bank-consent': bankConsentContract,
  'import-transactions': importTransactionsContract,
  'webhook-delivery': webhookDeliveryContract,
  'agent-action': agentActionContract,
  'apply-rules': applyRulesContract,
  're-encrypt': reEncryptContract,
  retention: retentionContract,
  'llm-categories': llmCategoriesContract,
};

const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
/** Imports that stay in the compiled code: `import type` is erased, so a contract may name a domain type. */
const valueImportsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*?from '([^']+)'/gms)].map((m) => m[1]);

/**
 * A Temporal call that names its workflow type, signal or query by a string literal (`handle.signal('x')`,
 * `workflow.start('x', …)`, `signalWithStart(…, { signal: 'x' })`): a rename breaks it at run time only.
 * Only a literal that is a bare identifier counts, so SQL (`client.query('select 1')`) and models
 * (`Model.query(trx)`) do not; nor do the contract's own `defineSignal('x')`/`defineQuery('x')`, which name them once.
 */
const STRING_NAMED_CALL =
  /\.(?:signal|signalWithStart|query|start|execute|startChild|executeChild)\(\s*(['"`])[A-Za-z_$][\w$]*\1|\bsignal:\s*(['"`])[A-Za-z_$][\w$]*\2/;

describe('the Temporal contract (shared/temporal)', () => {
  it('lists every workflow folder here', () => {
    const folders = readdirSync(TEMPORAL, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(Object.keys(contracts).sort()).toEqual(folders.sort());
  });

  // The worker registers workflows by export name: a contract naming a type the worker lacks starts runs that never progress.
  it.each(Object.entries(contracts))('%s: workflows/index.ts exports its workflow type', (_folder, contract) => {
    expect(typeof (workflows as Record<string, unknown>)[contract.workflowType]).toBe('function');
  });

  // Recorded histories and running workflows carry these names: renaming one breaks them.
  it('keeps the signal and query names that running workflows know', () => {
    expect([buttonReply.name, stageQuery.name, syncRequested.name, syncStatus.name, consentExpiryChanged.name, consentStage.name]).toEqual([
      'buttonReply',
      'stage',
      'syncRequested',
      'syncStatus',
      'consentExpiryChanged',
      'consentStage',
    ]);
  });

  // What workflows import must be safe in the sandbox: definitions, types, and how a run's summary is written.
  it('keeps contract files free of anything but the workflow SDK', () => {
    for (const folder of Object.keys(contracts)) {
      const allowed = ['@temporalio/workflow', '../contract', '../search-attribute-keys', '../summary'];
      expect(valueImportsOf(path.join(TEMPORAL, folder, 'contract.ts')).filter((i) => !allowed.includes(i))).toEqual([]);
    }
    for (const file of ['contract.ts', 'search-attribute-keys.ts', 'summary.ts']) {
      expect(importsOf(path.join(TEMPORAL, file)).filter((i) => i !== '@temporalio/common')).toEqual([]);
    }
  });

  it('tells a string-named Temporal call from SQL, model queries and the definitions', () => {
    const flagged = [
      "await handle.signal('buttonReply', reply);",
      'await handle.query("stage");',
      "await client.workflow.start('syncConnection', { taskQueue, workflowId, args });",
      "await client.workflow.signalWithStart(syncConnectionContract.workflowType, { signal: 'syncRequested', signalArgs });",
    ];
    const passed = [
      "export const syncRequested = defineSignal<[SyncRequest]>('syncRequested');",
      "export const stageQuery = defineQuery<string>('stage');",
      "await client.query('select 1');",
      'await c.query(`listen ${channel}`);',
      'await Team.query(trx).findById(teamId);',
      'await handle.signal(buttonReply, reply);',
    ];
    expect(flagged.filter((line) => !STRING_NAMED_CALL.test(line))).toEqual([]);
    expect(passed.filter((line) => STRING_NAMED_CALL.test(line))).toEqual([]);
  });

  it('is how every caller names workflows, signals and queries: no string literal in a start, signal or query', () => {
    const files = ['api', 'shared', 'activities', 'workflows', 'test']
      .flatMap((dir) => tsFiles(path.join(ROOT, dir)))
      .filter((file) => file !== __filename);
    const offenders = linesMatching(files, STRING_NAMED_CALL);
    expect(offenders).toEqual([]);
  });
});
