// Every workflow the worker runs. Workflows import only types from activities/.
export { apiKeyNotification } from './api-key-notification';
export { syncConnection } from './sync-connection';
export { receiptIngestion } from './receipt-ingestion';
export { sendChatMessage } from './send-chat-message';
export { syncExchangeRates } from './sync-exchange-rates';
export { invitation } from './invitation';
export { teamDeletion } from './team-deletion';
export { notificationDelivery } from './notification-delivery';
export { documentProcessing } from './document-processing';
export { weeklyInsights } from './weekly-insights';
export { invoiceLifecycle } from './invoice-lifecycle';
export { recurringInvoice } from './recurring-invoice';
export { scheduledBankSync } from './scheduled-bank-sync';
export { exportTransactions } from './export-transactions';
export { bankConsentExpiry } from './bank-consent-expiry';
export { importTransactions } from './import-transactions';
export { webhookDelivery } from './webhook-delivery';
