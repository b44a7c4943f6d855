import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../shared/errors';

/**
 * Counts failed client authentications and grants, per IP and per client_id. Past the budget the
 * endpoint answers 429 until the window passes, successes included: guessing secrets or codes stops paying.
 */
export function createBruteForceGuard(opts = { perIp: 30, perClient: 10, windowS: 600 }) {
  const byIp = new RateLimiterMemory({ keyPrefix: 'ip', points: opts.perIp, duration: opts.windowS });
  const byClient = new RateLimiterMemory({ keyPrefix: 'client', points: opts.perClient, duration: opts.windowS });
  const blocked = (res: RateLimiterRes | null, limit: number) => res !== null && res.consumedPoints >= limit;

  return {
    async check(ip: string, clientId: string | undefined): Promise<void> {
      const [a, b] = await Promise.all([byIp.get(ip), clientId ? byClient.get(clientId) : null]);
      if (blocked(a, opts.perIp) || blocked(b, opts.perClient)) {
        const wait = Math.ceil(Math.max(a?.msBeforeNext ?? 0, b?.msBeforeNext ?? 0) / 1000);
        const err = new AppError(429, 'Too Many Requests', `Too many failed attempts; retry in ${wait} s`);
        throw Object.assign(err, { retryAfter: wait });
      }
    },
    async failed(ip: string, clientId: string | undefined): Promise<void> {
      await Promise.all([byIp.penalty(ip, 1), clientId ? byClient.penalty(clientId, 1) : null]);
    },
  };
}
