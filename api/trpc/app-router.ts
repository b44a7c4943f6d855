import type { ApiDeps } from '../deps';
import { apiKeysRouter } from './routers/api-keys';
import { bankAccountsRouter, bankConnectionsRouter } from './routers/banking';
import { categoriesRouter, tagsRouter } from './routers/catalog';
import { chatRouter } from './routers/chat';
import { customersRouter } from './routers/customers';
import { transactionImportsRouter } from './routers/imports';
import { inboxRouter } from './routers/inbox';
import { insightsRouter } from './routers/insights';
import { invoicesRouter } from './routers/invoices';
import { invoiceSeriesRouter } from './routers/invoice-series';
import { invoiceProductsRouter } from './routers/invoice-products';
import { notificationsRouter } from './routers/notifications';
import { searchRouter } from './routers/search';
import { documentsRouter } from './routers/documents';
import { oauthApplicationsRouter } from './routers/oauth-applications';
import { reportsRouter } from './routers/reports';
import { teamRouter } from './routers/team';
import { teamsRouter } from './routers/teams';
import { trackerEntriesRouter, trackerProjectsRouter } from './routers/tracker';
import { transactionsRouter } from './routers/transactions';
import { userRouter } from './routers/user';
import { webhookEndpointsRouter } from './routers/webhook-endpoints';
import { router } from './trpc';

export const createAppRouter = (deps: ApiDeps) =>
  router({
    transactions: transactionsRouter(deps),
    transactionImports: transactionImportsRouter(deps),
    tags: tagsRouter(deps),
    categories: categoriesRouter(deps),
    customers: customersRouter(deps),
    invoices: invoicesRouter(deps),
    trackerProjects: trackerProjectsRouter(deps),
    trackerEntries: trackerEntriesRouter(deps),
    reports: reportsRouter(deps),
    apiKeys: apiKeysRouter(deps),
    bankConnections: bankConnectionsRouter(deps),
    bankAccounts: bankAccountsRouter(deps),
    team: teamRouter(deps),
    inbox: inboxRouter(deps),
    oauthApplications: oauthApplicationsRouter(deps),
    teams: teamsRouter(deps),
    user: userRouter(deps),
    chat: chatRouter(deps),
    notifications: notificationsRouter(deps),
    search: searchRouter(deps),
    documents: documentsRouter(deps),
    insights: insightsRouter(deps),
    invoiceSeries: invoiceSeriesRouter(deps),
    invoiceProducts: invoiceProductsRouter(deps),
    webhookEndpoints: webhookEndpointsRouter(deps),
  });

/** The type tRPC clients import: `createTRPCClient<AppRouter>(…)`. */
export type AppRouter = ReturnType<typeof createAppRouter>;
