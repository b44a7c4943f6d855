import Koa from 'koa';
import Router from '@koa/router';
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
import { under } from './http/under';
import type { AppState } from './http/state';
import { buildOpenApiDocument } from './openapi';
import { oauthRouter } from './oauth/router';
import { mcpRouter } from './mcp/router';
import { referencePageRouter } from './reference-page';
import { healthRouter } from './health';
import { trpcDoor, trpcMiddleware } from './trpc/door';
import { restDoor } from './rest/door';
import { operations } from './operations';
import { webhookRouter } from './webhooks';
import { publicInvoiceRouter } from './public-invoices';
import { accountantLinkRouter } from './accountant-links';

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
    () => deps.metrics.rateLimited('auth_failures'),
  );
  const requests = leasedBudget(
    limiters.limiter({ keyPrefix: 'requests', points: deps.config.RATE_LIMIT_PER_MINUTE, durationS: 60 }),
    deps.config.RATE_LIMIT_PER_MINUTE,
  );
  const appRouter = trpcDoor(operations, deps);
  const openapi = buildOpenApiDocument(operations, deps.config.PUBLIC_URL);

  const publicRouter = new Router<AppState>();
  publicRouter.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });

  const api = restDoor(operations, deps, authenticate, { validateResponses: deps.config.VALIDATE_RESPONSES });

  app
    .use(requestId({ traced: Boolean(deps.config.OTEL_EXPORTER_OTLP_ENDPOINT) }))
    .use(securityHeaders())
    .use(accessLog(deps.logger))
    .use(deps.metrics.middleware())
    .use(errorEnvelope())
    .use(corsFor(deps.config.ALLOWED_API_ORIGINS))
    .use(under(healthRouter(deps)))
    .use(under(referencePageRouter()))
    .use(under(publicRouter))
    // Webhooks read their own raw body (signatures are over the exact bytes) and are not rate limited:
    // providers retry on 429, which would only add load.
    .use(under(webhookRouter(deps)))
    .use(rateLimit(requests, deps.config.RATE_LIMIT_PER_MINUTE, deps.metrics))
    // Public invoice links need no login, but share the per-client budget like any caller.
    .use(under(publicInvoiceRouter(deps)))
    // As are accountant links (an export shared with someone outside the team).
    .use(under(accountantLinkRouter(deps)))
    .use(trpcMiddleware(appRouter, authenticate))
    .use(under(mcpRouter(deps, authenticate)))
    // Every door reads its own body when it needs one: REST after authentication (rest/door.ts), OAuth its form or JSON.
    .use(under(oauthRouter(deps)))
    .use(api);

  // Errors after the envelope (a client hanging up mid-response) reach here instead of stderr.
  app.on('error', (err: Error & { code?: string }) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET') deps.logger.debug({ err }, 'client went away');
    else deps.logger.error({ err }, 'response error');
  });

  return app;
}
