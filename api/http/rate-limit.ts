import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../../shared/errors';
import type { AppState } from './state';

/**
 * A per-minute budget per credential (or per IP without one), with the IETF RateLimit headers.
 * The counter lives in process memory: with several API processes each gets its own budget.
 */
export function rateLimit(perMinute: number): Middleware<AppState> {
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  return async (ctx, next) => {
    const auth = ctx.get('authorization');
    const key = auth ? `t:${createHash('sha256').update(auth).digest('base64url').slice(0, 22)}` : `ip:${ctx.ip}`;
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      const retry = Math.ceil(rejected.msBeforeNext / 1000);
      ctx.set({ 'RateLimit-Limit': String(perMinute), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retry), 'Retry-After': String(retry) });
      throw tooManyRequests(`Rate limit of ${perMinute} requests per minute exceeded; retry in ${retry} s`);
    }
    ctx.set({ 'RateLimit-Limit': String(perMinute), 'RateLimit-Remaining': String(res.remainingPoints), 'RateLimit-Reset': String(Math.ceil(res.msBeforeNext / 1000)) });
    await next();
  };
}
