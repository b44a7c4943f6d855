import cors from '@koa/cors';
import type { Middleware } from 'koa';

export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'User-Agent',
  'x-request-id',
  'x-user-locale',
  'x-user-timezone',
  'x-user-country',
  'Idempotency-Key',
  'x-team-id',
];

/** Only origins listed in ALLOWED_API_ORIGINS get CORS headers; others get none (the browser blocks them). */
export function corsFor(allowedOrigins: string[]): Middleware {
  const allowed = new Set(allowedOrigins);
  const any = allowed.has('*');
  const answer = cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return any ? '*' : allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: ['x-request-id', 'Idempotent-Replayed', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  }) as Middleware;
  // A request without an Origin (a server, an SDK, a provider) gets no CORS headers from cors() either,
  // only the Vary; it skips the middleware's own promise. Nothing before this sets a Vary, so it is
  // set outright rather than parsed and merged (ctx.vary) on every request.
  return (ctx, next) => {
    if (any || ctx.get('Origin')) return answer(ctx, next) as Promise<void>;
    if (ctx.res.hasHeader('Vary')) ctx.vary('Origin');
    else ctx.set('Vary', 'Origin');
    return next();
  };
}
