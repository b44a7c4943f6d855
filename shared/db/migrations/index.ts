import type { Knex } from 'knex';
import * as initial from './0001_initial';
import * as exchangeRates from './0002_exchange_rates';
import * as documentContent from './0003_document_content';
import * as uniqueDocuments from './0004_unique_documents';
import * as teamsUsersInvitations from './0030_teams_users_invitations';
import * as chatConversations from './0031_chat_conversations';
import * as rateLimits from './0050_rate_limits';
import * as idempotencyKeys from './0051_idempotency_keys';
import * as webhookEventOutbox from './0052_webhook_event_outbox';
import * as authChangedNotifications from './0053_auth_changed_notifications';
import * as teamWall from './0054_team_wall';
import * as notificationReadingAndDelivery from './0055_notification_reading_and_delivery';
import * as search from './0056_search';
import * as documentLibrary from './0057_document_library';
import * as sentMessages from './0058_sent_messages';
import * as reportTotals from './0059_report_totals';
import * as insights from './0060_insights';
import * as sentMessageClaims from './0061_sent_message_claims';
import * as documentSearchVector from './0062_document_search_vector';
import * as invoicePublicLinks from './0063_invoice_public_links';
import * as trackerEntryInvoices from './0064_tracker_entry_invoices';
import * as invoiceLifecycle from './0065_invoice_lifecycle';
import * as invoiceSeries from './0066_invoice_series';
import * as invoiceNumberingProducts from './0067_invoice_numbering_products';
import * as invoicePaymentMatching from './0068_invoice_payment_matching';
import * as teamPaymentDetails from './0069_team_payment_details';
import * as manualAccountBalances from './0070_manual_account_balances';
import * as teamLogo from './0071_team_logo';
import * as transactionImports from './0072_transaction_imports';
import * as transactionExports from './0073_transaction_exports';
import * as webhookEndpoints from './0074_webhook_endpoints';
import * as bankConnectionLifecycle from './0075_bank_connection_lifecycle';
import * as documentPhraseShingles from './0076_document_phrase_shingles';
import * as searchPendingLists from './0077_search_pending_lists';
import * as transactionSearchVector from './0078_transaction_search_vector';
import * as documentsPendingIndex from './0079_documents_pending_index';
import * as transactionTextTrigrams from './0080_transaction_text_trigrams';
import * as transactionWeekTrigrams from './0081_transaction_week_trigrams';
import * as bankConsentObservedAt from './0082_bank_consent_observed_at';
import * as weekTrigramsLoop from './0083_week_trigrams_loop';
import * as events from './0084_events';
import * as oauthClientRegistration from './0085_oauth_client_registration';
import * as listSortIndexes from './0086_list_sort_indexes';
import * as creditNotes from './0087_credit_notes';
import * as auditTrail from './0088_audit_trail';
import * as transactionRules from './0089_transaction_rules';
import * as agentActions from './0090_agent_actions';
import * as eInvoiceParties from './0091_e_invoice_parties';
import * as retentionIndexes from './0092_retention_indexes';
import * as auditLaterTables from './0093_audit_later_tables';
import * as transactionMerges from './0094_transaction_merges';
import * as accountantHandoff from './0095_accountant_handoff';
import * as inboxEInvoices from './0096_inbox_e_invoices';
import * as recurringPayments from './0097_recurring_payments';
import * as transactionSplits from './0098_transaction_splits';
import * as learnedCategories from './0099_learned_categories';
import * as notificationEmailRecipients from './0100_notification_email_recipients';
import * as transactionPending from './0101_transaction_pending';
import * as auditEntryHash from './0102_audit_entry_hash';
import * as llmCategories from './0104_llm_categories';
import * as auditEntryFormat from './0105_audit_entry_format';
import * as reportTotalsAtCommit from './0108_report_totals_at_commit';
import * as syncRequests from './0109_sync_requests';
import * as auditInsertsPerStatement from './0110_audit_inserts_per_statement';
import * as oneCategorizedIndex from './0111_one_categorized_index';

/**
 * Migrations are listed here rather than discovered on disk, so they run the same under tsx, jest,
 * a compiled build or a bundle. Append new ones; never edit or reorder an applied one.
 */
const migrations: Record<string, Knex.Migration> = {
  '0001_initial': initial,
  '0002_exchange_rates': exchangeRates,
  '0003_document_content': documentContent,
  '0004_unique_documents': uniqueDocuments,
  '0030_teams_users_invitations': teamsUsersInvitations,
  '0031_chat_conversations': chatConversations,
  '0050_rate_limits': rateLimits,
  '0051_idempotency_keys': idempotencyKeys,
  '0052_webhook_event_outbox': webhookEventOutbox,
  '0053_auth_changed_notifications': authChangedNotifications,
  '0054_team_wall': teamWall,
  '0055_notification_reading_and_delivery': notificationReadingAndDelivery,
  '0056_search': search,
  '0057_document_library': documentLibrary,
  '0058_sent_messages': sentMessages,
  '0059_report_totals': reportTotals,
  '0060_insights': insights,
  '0061_sent_message_claims': sentMessageClaims,
  '0062_document_search_vector': documentSearchVector,
  '0063_invoice_public_links': invoicePublicLinks,
  '0064_tracker_entry_invoices': trackerEntryInvoices,
  '0065_invoice_lifecycle': invoiceLifecycle,
  '0066_invoice_series': invoiceSeries,
  '0067_invoice_numbering_products': invoiceNumberingProducts,
  '0068_invoice_payment_matching': invoicePaymentMatching,
  '0069_team_payment_details': teamPaymentDetails,
  '0070_manual_account_balances': manualAccountBalances,
  '0071_team_logo': teamLogo,
  '0072_transaction_imports': transactionImports,
  '0073_transaction_exports': transactionExports,
  '0074_webhook_endpoints': webhookEndpoints,
  '0075_bank_connection_lifecycle': bankConnectionLifecycle,
  '0076_document_phrase_shingles': documentPhraseShingles,
  '0077_search_pending_lists': searchPendingLists,
  '0078_transaction_search_vector': transactionSearchVector,
  '0079_documents_pending_index': documentsPendingIndex,
  '0080_transaction_text_trigrams': transactionTextTrigrams,
  '0081_transaction_week_trigrams': transactionWeekTrigrams,
  '0082_bank_consent_observed_at': bankConsentObservedAt,
  '0083_week_trigrams_loop': weekTrigramsLoop,
  '0084_events': events,
  '0085_oauth_client_registration': oauthClientRegistration,
  '0086_list_sort_indexes': listSortIndexes,
  '0087_credit_notes': creditNotes,
  '0088_audit_trail': auditTrail,
  '0089_transaction_rules': transactionRules,
  '0090_agent_actions': agentActions,
  '0091_e_invoice_parties': eInvoiceParties,
  '0092_retention_indexes': retentionIndexes,
  '0093_audit_later_tables': auditLaterTables,
  '0094_transaction_merges': transactionMerges,
  '0095_accountant_handoff': accountantHandoff,
  '0096_inbox_e_invoices': inboxEInvoices,
  '0097_recurring_payments': recurringPayments,
  '0098_transaction_splits': transactionSplits,
  '0099_learned_categories': learnedCategories,
  '0100_notification_email_recipients': notificationEmailRecipients,
  '0101_transaction_pending': transactionPending,
  '0102_audit_entry_hash': auditEntryHash,
  '0104_llm_categories': llmCategories,
  '0105_audit_entry_format': auditEntryFormat,
  '0108_report_totals_at_commit': reportTotalsAtCommit,
  '0109_sync_requests': syncRequests,
  '0110_audit_inserts_per_statement': auditInsertsPerStatement,
  '0111_one_categorized_index': oneCategorizedIndex,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: () => Promise.resolve(Object.keys(migrations)),
  getMigrationName: (name) => name,
  getMigration: (name) => Promise.resolve(migrations[name]),
};
