import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../../logger';

/**
 * Chat messages per user per window: each answer can cost a model call and several reports. The
 * counter is one every API process shares, so a user's budget is the same whichever process takes
 * the message.
 */
export interface ChatLimiter {
  /** null when the user may ask now; otherwise the seconds until they may. */
  take(userId: string): Promise<number | null>;
  readonly limit: number;
}

/** The one call of a shared counter (a limiter of the gateway's store) the chat budget uses. */
export type ChatCounter = Pick<RateLimiterAbstract, 'consume'>;

export function createChatLimiter(opts: { counter: ChatCounter; limit: number; logger: Pick<Logger, 'warn'> }): ChatLimiter {
  return {
    limit: opts.limit,
    async take(userId) {
      try {
        await opts.counter.consume(userId);
        return null;
      } catch (rejected) {
        if (rejected instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
        // As for the request budget: an outage of the counters must not become an outage of the assistant.
        opts.logger.warn({ err: rejected }, 'chat rate-limit store unavailable; message let through');
        return null;
      }
    },
  };
}
