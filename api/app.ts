import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { createAuthenticator } from './auth/authenticate';
import type { ApiDeps } from './deps';
import { accessLog } from './http/access-log';
import { corsFor } from './http/cors';
import { errorEnvelope } from './http/error-envelope';
import { rateLimit } from './http/rate-limit';
import { requestId } from './http/request-id';
import type { AppState } from './http/state';
import { buildOpenApiDocument } from './openapi';
import { oauthRouter } from './oauth/router';
import { referencePageRouter } from './reference-page';
import { mountRoutes, type RouteSpec } from './rest/define';
import { healthRouter } from './rest/health';
import { bankRoutes } from './rest/bank-connections';
import { catalogRoutes } from './rest/catalog';
import { customerRoutes } from './rest/customers';
import { inboxRoutes } from './rest/inbox';
import { invoiceRoutes } from './rest/invoices';
import { reportRoutes } from './rest/reports';
import { teamRoutes } from './rest/teams';
import { trackerRoutes } from './rest/tracker';
import { transactionRoutes } from './rest/transactions';
import { createAppRouter } from './trpc/app-router';
import { trpcMiddleware } from './trpc/mount';
import { webhookRouter } from './webhooks';

/** Every REST operation behind bearer auth; public routes (health, reference, webhooks, OAuth) mount separately. */
export const restRoutes = (deps: ApiDeps): RouteSpec[] => [
  ...transactionRoutes(deps),
  ...catalogRoutes(deps),
  ...customerRoutes(deps),
  ...invoiceRoutes(deps),
  ...trackerRoutes(deps),
  ...reportRoutes(deps),
  ...bankRoutes(deps),
  ...teamRoutes(deps),
  ...inboxRoutes(deps),
];

/**
 * Builds the gateway from its parts. No module-level state: two apps built from two sets of deps
 * are fully independent (tests rely on it).
 */
export function createApp(deps: ApiDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.TRUST_PROXY });
  const authenticate = createAuthenticator(deps.db, deps.config);
  const routes = restRoutes(deps);
  const openapi = buildOpenApiDocument(routes, deps.config.PUBLIC_URL);

  const publicRouter = new Router<AppState>();
  publicRouter.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });

  const api = new Router<AppState>();
  mountRoutes(api, routes, authenticate);

  app
    .use(requestId())
    .use(accessLog(deps.logger))
    .use(errorEnvelope())
    .use(corsFor(deps.config.ALLOWED_API_ORIGINS))
    .use(healthRouter(deps).routes())
    .use(referencePageRouter().routes())
    .use(publicRouter.routes())
    // Webhooks read their own raw body (signatures are over the exact bytes) and are not rate limited:
    // providers retry on 429, which would only add load.
    .use(webhookRouter(deps).routes())
    .use(rateLimit(deps.config.RATE_LIMIT_PER_MINUTE))
    .use(trpcMiddleware(createAppRouter(deps), authenticate))
    .use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', formLimit: '1mb', encoding: 'utf-8' }))
    .use(oauthRouter(deps).routes())
    .use(api.routes())
    .use(api.allowedMethods());

  // Errors after the envelope (a client hanging up mid-response) reach here instead of stderr.
  app.on('error', (err: Error & { code?: string }) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET') deps.logger.debug({ err }, 'client went away');
    else deps.logger.error({ err }, 'response error');
  });

  return app;
}
