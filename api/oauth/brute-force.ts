import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../shared/errors';
import type { LimiterStore } from '../http/limiters';

export interface BruteForceOptions {
  perIp: number;
  perClientAndIp: number;
  windowS: number;
}

/**
 * Counts failed OAuth client authentications and grants per IP and per client at that IP, in the
 * store every API process shares. The budgets are never keyed on a client alone: a stranger's
 * failures cannot lock a real client out, only the stranger's own address.
 */
export function createBruteForceGuard(store: LimiterStore, opts: BruteForceOptions = { perIp: 30, perClientAndIp: 10, windowS: 600 }) {
  const byIp = store.limiter({ keyPrefix: 'oauth-ip', points: opts.perIp, durationS: opts.windowS });
  const byClientAndIp = store.limiter({ keyPrefix: 'oauth-client-ip', points: opts.perClientAndIp, durationS: opts.windowS });
  const over = (res: RateLimiterRes | null, limit: number) => (res !== null && res.consumedPoints >= limit ? res.msBeforeNext : 0);
  const read = (l: RateLimiterAbstract, key: string) => l.get(key).catch(() => null);

  return {
    /** 429 when this address (or this client at this address) has used its budget of failures. */
    async assertAllowed(ip: string, clientId: string | undefined, scope: 'address' | 'client-at-address'): Promise<void> {
      const [a, b] = await Promise.all([
        scope === 'address' ? read(byIp, ip) : null,
        clientId ? read(byClientAndIp, `${clientId}@${ip}`) : null,
      ]);
      const waitMs = Math.max(over(a, opts.perIp), over(b, opts.perClientAndIp));
      if (waitMs > 0) {
        const wait = Math.max(1, Math.ceil(waitMs / 1000));
        throw Object.assign(new AppError(429, 'Too Many Requests', `Too many failed attempts; retry in ${wait} s`), { retryAfter: wait });
      }
    },
    async failed(ip: string, clientId: string | undefined): Promise<void> {
      await Promise.all([byIp.penalty(ip, 1), clientId ? byClientAndIp.penalty(`${clientId}@${ip}`, 1) : null]).catch(() => undefined);
    },
  };
}
