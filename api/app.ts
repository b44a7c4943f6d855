import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { createAuthenticator } from './auth/authenticate';
import { throttledAuthenticator } from './auth/failure-throttle';
import type { ApiDeps } from './deps';
import { accessLog } from './http/access-log';
import { corsFor } from './http/cors';
import { errorEnvelope } from './http/error-envelope';
import { securityHeaders } from './http/security-headers';
import { leasedBudget } from './http/leased-budget';
import { rateLimit } from './http/rate-limit';
import { requestId } from './http/request-id';
import type { AppState } from './http/state';
import { buildOpenApiDocument } from './openapi';
import { oauthRouter } from './oauth/router';
import { mcpRouter } from './mcp/router';
import { referencePageRouter } from './reference-page';
import { mountRoutes, type Route } from './rest/define';
import { healthRouter } from './rest/health';
import { bankRoutes } from './rest/bank-connections';
import { catalogRoutes } from './rest/catalog';
import { chatRoutes } from './rest/chat';
import { customerRoutes } from './rest/customers';
import { importRoutes } from './rest/imports';
import { inboxRoutes } from './rest/inbox';
import { invoiceRoutes } from './rest/invoices';
import { invoiceSeriesRoutes } from './rest/invoice-series';
import { invoiceProductRoutes } from './rest/invoice-products';
import { webhookEndpointRoutes } from './rest/webhook-endpoints';
import { invoicePaymentSuggestionRoutes } from './rest/invoice-payment-suggestions';
import { notificationRoutes } from './rest/notifications';
import { insightRoutes } from './rest/insights';
import { reportRoutes } from './rest/reports';
import { searchRoutes } from './rest/search';
import { documentRoutes } from './rest/documents';
import { teamRoutes } from './rest/teams';
import { trackerRoutes } from './rest/tracker';
import { transactionRoutes } from './rest/transactions';
import { transactionExportRoutes } from './rest/transaction-exports';
import { userRoutes } from './rest/users';
import { createAppRouter } from './trpc/app-router';
import { trpcMiddleware } from './trpc/mount';
import { trpcDoor, type AppRouter } from './trpc/door';
import { restDoor } from './rest/door';
import { operations } from './operations';
import { router as trpcRouter } from './trpc/trpc';
import { webhookRouter } from './webhooks';
import { scopeTable } from './scope-table';
import { publicInvoiceRouter } from './public-invoices';

/** Every REST operation behind bearer auth; public routes (health, reference, webhooks, OAuth) mount separately. */
export const restRoutes = (deps: ApiDeps): Route[] => [
  ...transactionExportRoutes(deps),
  // Before the transaction routes: `/transactions/imports` is not a transaction id.
  ...importRoutes(deps),
  ...transactionRoutes(deps),
  ...catalogRoutes(deps),
  ...customerRoutes(deps),
  ...invoiceRoutes(deps),
  ...trackerRoutes(deps),
  ...reportRoutes(deps),
  ...bankRoutes(deps),
  ...teamRoutes(deps),
  ...inboxRoutes(deps),
  ...userRoutes(deps),
  ...chatRoutes(deps),
  ...notificationRoutes(deps),
  ...insightRoutes(deps),
  ...invoiceSeriesRoutes(deps),
  ...invoiceProductRoutes(deps),
  ...invoicePaymentSuggestionRoutes(deps),
  ...searchRoutes(deps),
  ...documentRoutes(deps),
  ...webhookEndpointRoutes(deps),
];

/**
 * Builds the gateway from its parts. No module-level state: two apps built from two sets of deps
 * are fully independent (tests rely on it).
 */
export function createApp(deps: ApiDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.TRUST_PROXY });
  const limiters = deps.limiters;
  const authenticate = throttledAuthenticator(
    createAuthenticator(deps.db, deps.config, deps.credentials),
    limiters.limiter({ keyPrefix: 'auth-failures', points: deps.config.AUTH_FAILURES_PER_MINUTE, durationS: 60 }),
    deps.config.AUTH_FAILURES_PER_MINUTE,
  );
  const requests = leasedBudget(
    limiters.limiter({ keyPrefix: 'requests', points: deps.config.RATE_LIMIT_PER_MINUTE, durationS: 60 }),
    deps.config.RATE_LIMIT_PER_MINUTE,
  );
  // TRANSITION: declared operations win over the hand-written routes and procedures they replace.
  const declared = new Set(operations.flatMap((op) => (op.rest ? [op.rest.replace(/:\w+/g, ':')] : [])));
  const routes = restRoutes(deps).filter((r) => !declared.has(`${r.method.toUpperCase()} ${r.path}`.replace(/:\w+/g, ':')));
  const legacyRouter = createAppRouter(deps);
  const doorRouter = trpcDoor(operations, deps);
  const merged: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(legacyRouter._def.record as Record<string, Record<string, unknown>>)) merged[k] = { ...v };
  for (const [k, v] of Object.entries(doorRouter._def.record as Record<string, Record<string, unknown>>)) merged[k] = { ...merged[k], ...v };
  const appRouter = trpcRouter(merged as never) as unknown as AppRouter;
  void scopeTable;
  const openapi = buildOpenApiDocument(operations, deps.config.PUBLIC_URL);

  const publicRouter = new Router<AppState>();
  publicRouter.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });

  const door = restDoor(operations, deps, authenticate, { validateResponses: deps.config.VALIDATE_RESPONSES });
  const api = new Router<AppState>();
  mountRoutes(api, routes, authenticate, { validateResponses: deps.config.VALIDATE_RESPONSES, db: deps.db });

  const parseForms = bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', formLimit: '1mb', encoding: 'utf-8' });
  const oauthBodies: Koa.Middleware<AppState> = (ctx, next) =>
    ctx.path.startsWith('/oauth/') || ctx.path.startsWith('/auth/') ? parseForms(ctx, next) : next();

  app
    .use(requestId())
    .use(securityHeaders())
    .use(accessLog(deps.logger))
    .use(errorEnvelope())
    .use(corsFor(deps.config.ALLOWED_API_ORIGINS))
    .use(healthRouter(deps).routes())
    .use(referencePageRouter().routes())
    .use(publicRouter.routes())
    // Webhooks read their own raw body (signatures are over the exact bytes) and are not rate limited:
    // providers retry on 429, which would only add load.
    .use(webhookRouter(deps).routes())
    .use(rateLimit(requests, deps.config.RATE_LIMIT_PER_MINUTE))
    // Public invoice links need no login, but share the per-client budget like any caller.
    .use(publicInvoiceRouter(deps).routes())
    .use(trpcMiddleware(appRouter, authenticate))
    .use(mcpRouter(deps, authenticate).routes())
    // OAuth takes form or JSON bodies (RFC 6749); REST routes read theirs after authentication (define.ts).
    .use(oauthBodies)
    .use(oauthRouter(deps).routes())
    .use(door.routes())
    .use(api.routes())
    .use(api.allowedMethods());

  // Errors after the envelope (a client hanging up mid-response) reach here instead of stderr.
  app.on('error', (err: Error & { code?: string }) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET') deps.logger.debug({ err }, 'client went away');
    else deps.logger.error({ err }, 'response error');
  });

  return app;
}
