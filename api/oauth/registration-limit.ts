import type { Context } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../../shared/errors';
import type { LimiterStore } from '../http/limiters';
import type { AppState } from '../http/state';

/**
 * Client registrations per IP per hour, counted before the body is read (a refused registration
 * counts too: probing the rules costs the same budget), in the store every API process shares.
 * When that store cannot be reached the registration goes through, as every other request does.
 */
export function createRegistrationLimit(store: LimiterStore, perHour: number, onRefused: () => void) {
  const limiter = store.limiter({ keyPrefix: 'oauth-register', points: perHour, durationS: 3600 });
  return async function assertRegistrationAllowed(ctx: Context & { state: AppState }): Promise<void> {
    try {
      await limiter.consume(ctx.ip);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) {
        ctx.state.log.warn({ err: rejected }, 'rate-limit store unavailable; client registration let through');
        return;
      }
      onRefused();
      const wait = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      ctx.set('Retry-After', String(wait));
      throw tooManyRequests(`At most ${perHour} client registrations per hour from one address; retry in ${wait} s`);
    }
  };
}
