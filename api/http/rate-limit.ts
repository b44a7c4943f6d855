import { hash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../../shared/errors';
import type { Budget } from './leased-budget';
import type { AppState } from './state';
import type { ApiMetrics } from '../metrics';

/** How many operations a request asks for: each call of a tRPC batch (`/trpc/a.b,c.d`) counts. */
export function operationsIn(ctx: Pick<Context, 'path'>): number {
  if (!ctx.path.startsWith('/trpc/')) return 1;
  return Math.max(1, ctx.path.slice('/trpc/'.length).split(',').length);
}

/**
 * A per-minute budget per credential (or per IP without one), with the IETF RateLimit headers.
 * The counters live in a store every API process shares (limiters.ts). When that store cannot be
 * reached, requests go through and a warning is logged: an outage of the counters must not become
 * an outage of the API.
 */
export function rateLimit(limiter: Budget, perMinute: number, metrics: ApiMetrics): Middleware<AppState> {
  const limit = String(perMinute);
  return async (ctx, next) => {
    const auth = ctx.get('authorization');
    const key = auth ? `t:${hash('sha256', auth, 'base64url').slice(0, 22)}` : `ip:${ctx.ip}`;
    let res: RateLimiterRes | undefined;
    try {
      res = await limiter.consume(key, operationsIn(ctx));
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) {
        ctx.state.log.warn({ err: rejected }, 'rate-limit store unavailable; request let through');
      } else {
        metrics.rateLimited('requests');
        const retry = Math.ceil(rejected.msBeforeNext / 1000);
        ctx.set({
          'RateLimit-Limit': limit,
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(retry),
          'Retry-After': String(retry),
        });
        throw tooManyRequests(`Rate limit of ${perMinute} requests per minute exceeded; retry in ${retry} s`);
      }
    }
    if (res) {
      ctx.set('RateLimit-Limit', limit);
      ctx.set('RateLimit-Remaining', String(res.remainingPoints));
      ctx.set('RateLimit-Reset', String(Math.ceil(res.msBeforeNext / 1000)));
    }
    await next();
  };
}
