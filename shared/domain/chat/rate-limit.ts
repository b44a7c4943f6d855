import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Chat messages per user per window: each answer can cost a model call and several reports. In
 * process memory (per API process) until the shared store for all limits exists.
 */
export interface ChatLimiter {
  /** null when the user may ask now; otherwise the seconds until they may. */
  take(userId: string): Promise<number | null>;
  readonly limit: number;
}

export function createChatLimiter(opts: { points: number; windowMs: number }): ChatLimiter {
  const limiter = new RateLimiterMemory({ points: opts.points, duration: Math.max(1, Math.ceil(opts.windowMs / 1000)) });
  return {
    limit: opts.points,
    async take(userId) {
      try {
        await limiter.consume(userId);
        return null;
      } catch (rejected) {
        if (!(rejected instanceof RateLimiterRes)) throw rejected;
        return Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      }
    },
  };
}
