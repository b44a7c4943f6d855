import type { Context } from 'koa';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Caller } from '../../shared/domain/auth/principal';
import { AppError, tooManyRequests } from '../../shared/errors';
import type { AppState } from '../http/state';
import { credentialsOf, type Authenticator } from './authenticate';

/** Authenticates the request a handler serves (REST route or tRPC procedure). */
export type RequestAuthenticator = (ctx: Context) => Promise<Caller>;

/**
 * Guessing credentials costs the guesser: each failed authentication that presented a credential
 * counts against the client's IP, and an IP over its budget is refused with 429 before any
 * credential of it is checked. Counting per IP, never per presented credential, is the point: a
 * thousand different wrong keys are a thousand failures of one guesser.
 */
export function throttledAuthenticator(
  authenticate: Authenticator,
  failures: RateLimiterAbstract,
  perMinute: number,
  onThrottled: () => void = () => undefined,
): RequestAuthenticator {
  return async (ctx) => {
    const credentials = credentialsOf((h) => ctx.get(h));
    // A credential this process has verified and still holds is no guess: it skips the count (a
    // round trip to the shared store on every request). Anything else, right or wrong, is judged below.
    if (credentials.authorization) {
      try {
        return await authenticate(credentials, { memoryOnly: true });
      } catch {
        // not remembered, or refused: the counted path decides, and counts a failure
      }
    }
    const ip = `ip:${ctx.ip}`;
    const seen = await failures.get(ip).catch(() => null); // a store outage must not lock everyone out
    if (seen && seen.consumedPoints >= perMinute) {
      onThrottled();
      const retry = Math.max(1, Math.ceil(seen.msBeforeNext / 1000));
      ctx.set('Retry-After', String(retry));
      throw tooManyRequests(`Too many failed authentications from this address; retry in ${retry} s`);
    }
    try {
      return await authenticate(credentials);
    } catch (err) {
      if (credentials.authorization && err instanceof AppError && err.status === 401) {
        await failures.penalty(ip, 1).catch((e: unknown) => {
          if (!(e instanceof RateLimiterRes)) (ctx.state as AppState).log.warn({ err: e }, 'could not count a failed authentication');
        });
      }
      throw err;
    }
  };
}
