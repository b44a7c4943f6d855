import { apiKeyActivities } from './api-keys/notify';
import { bankingActivities } from './banking/sync';
import { documentActivities } from './documents/process';
import { insightActivities } from './insights/weekly';
import { invoiceLifecycleActivities } from './invoices/lifecycle';
import { invoiceSeriesActivities } from './invoices/series';
import { notificationActivities } from './notifications/deliver';
import { receiptActivities } from './receipts/ingest';
import { exchangeRateActivities } from './exchange-rates/sync';
import { invitationActivities } from './teams/invitations';
import { teamDeletionActivities } from './teams/deletion';
import { webhookDeliveryActivities } from './webhooks/deliver';
import type { ActivityDeps } from './deps';

export { createActivityDeps, closeActivityDeps, type ActivityDeps } from './deps';

/** Every activity, bound to its dependencies. The worker registers the result as is. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...apiKeyActivities(deps),
    ...bankingActivities(deps),
    ...receiptActivities(deps),
    ...exchangeRateActivities(deps),
    ...invitationActivities(deps),
    ...teamDeletionActivities(deps),
    ...notificationActivities(deps),
    ...documentActivities(deps),
    ...insightActivities(deps),
    ...invoiceLifecycleActivities(deps),
    ...invoiceSeriesActivities(deps),
    ...webhookDeliveryActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
