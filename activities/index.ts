import { agentActionActivities } from './agent-actions/agent-action';
import { apiKeyActivities } from './api-keys/notify';
import { auditActivities } from './audit/checkpoint';
import { bankingActivities } from './banking/sync';
import { bankConsentActivities } from './banking/consent';
import { documentActivities } from './documents/process';
import { importActivities } from './imports/import';
import { insightActivities } from './insights/weekly';
import { invoiceLifecycleActivities } from './invoices/lifecycle';
import { invoiceSeriesActivities } from './invoices/series';
import { notificationActivities } from './notifications/deliver';
import { receiptActivities } from './receipts/ingest';
import { exchangeRateActivities } from './exchange-rates/sync';
import { reEncryptActivities } from './crypto/re-encrypt';
import { transactionExportActivities } from './exports/transactions';
import { invitationActivities } from './teams/invitations';
import { teamDeletionActivities } from './teams/deletion';
import { webhookDeliveryActivities } from './webhooks/deliver';
import { applyRulesActivities } from './rules/apply';
import { retentionActivities } from './retention/prune';
import { llmCategoryActivities } from './categories/llm';
import type { ActivityDeps } from './deps';

export { createActivityDeps, closeActivityDeps, type ActivityDeps } from './deps';

/** Every activity, bound to its dependencies. The worker registers the result as is. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...apiKeyActivities(deps),
    ...auditActivities(deps),
    ...bankingActivities(deps),
    ...bankConsentActivities(deps),
    ...receiptActivities(deps),
    ...exchangeRateActivities(deps),
    ...invitationActivities(deps),
    ...teamDeletionActivities(deps),
    ...notificationActivities(deps),
    ...documentActivities(deps),
    ...insightActivities(deps),
    ...invoiceLifecycleActivities(deps),
    ...invoiceSeriesActivities(deps),
    ...transactionExportActivities(deps),
    ...importActivities(deps),
    ...webhookDeliveryActivities(deps),
    ...reEncryptActivities(deps),
    ...applyRulesActivities(deps),
    ...agentActionActivities(deps),
    ...retentionActivities(deps),
    ...llmCategoryActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
