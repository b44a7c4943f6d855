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
  return cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return allowed.has('*') ? '*' : allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: ['x-request-id', 'Idempotent-Replayed', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  }) as Middleware;
}
