import type { AnyOperation } from './declare';
import { accountantLinks } from './accountant-links';
import { agentActions } from './agent-actions';
import { apiKeys } from './api-keys';
import { bankAccounts } from './bank-accounts';
import { bankConnections } from './bank-connections';
import { categories } from './categories';
import { chatConversations } from './chat-conversations';
import { chat } from './chat';
import { currencies } from './currencies';
import { customers } from './customers';
import { datev } from './datev';
import { documents } from './documents';
import { events } from './events';
import { auditEvents } from './audit-events';
import { inbox } from './inbox';
import { insights } from './insights';
import { invoicePaymentSuggestions } from './invoice-payment-suggestions';
import { invoiceProducts } from './invoice-products';
import { invoiceSeries } from './invoice-series';
import { invoices } from './invoices';
import { notifications } from './notifications';
import { oauthApplications } from './oauth-applications';
import { recurringPayments } from './recurring-payments';
import { reports } from './reports';
import { search } from './search';
import { tags } from './tags';
import { teams } from './teams';
import { trackerEntries } from './tracker-entries';
import { trackerProjects } from './tracker-projects';
import { transactionExports } from './transaction-exports';
import { transactionImports } from './transaction-imports';
import { transactionRules } from './transaction-rules';
import { transactions } from './transactions';
import { users } from './users';
import { webhookEndpoints } from './webhook-endpoints';

/**
 * Every operation of the API, each declared once: the REST routes, the tRPC procedures, the OpenAPI
 * document and the scope table are all made from this list. A new resource adds its file's list here.
 */
export const OPERATIONS = [
  ...accountantLinks,
  ...agentActions,
  ...apiKeys,
  ...auditEvents,
  ...bankAccounts,
  ...bankConnections,
  ...categories,
  ...chatConversations,
  ...chat,
  ...currencies,
  ...customers,
  ...datev,
  ...documents,
  ...events,
  ...inbox,
  ...insights,
  ...invoicePaymentSuggestions,
  ...invoiceProducts,
  ...invoiceSeries,
  ...invoices,
  ...notifications,
  ...oauthApplications,
  ...recurringPayments,
  ...reports,
  ...search,
  ...tags,
  ...teams,
  ...trackerEntries,
  ...trackerProjects,
  ...transactionExports,
  ...transactionImports,
  ...transactionRules,
  ...transactions,
  ...users,
  ...webhookEndpoints,
] as const;

/** The same list, for code that walks operations without their types. */
export const operations: readonly AnyOperation[] = OPERATIONS;
