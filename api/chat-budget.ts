import type { Principal } from '../shared/domain/auth/principal';
import { tooManyRequests } from '../shared/errors';
import type { ApiDeps } from './deps';

/** A user over the assistant's budget: how long until they may ask again, of how many per window. */
export interface BudgetRefusal {
  retryAfter: number;
  limit: number;
}

/**
 * Takes one from the user's assistant budget: each chat message and each MCP tool call costs one,
 * since both run the same tools and reports. null when there was one to take.
 */
export async function takeAssistantBudget(assistant: ApiDeps['assistant'], p: Principal): Promise<BudgetRefusal | null> {
  const wait = await assistant.limiter.take(p.userId);
  return wait === null ? null : { retryAfter: wait, limit: assistant.limiter.limit };
}

/** The headers a client needs to wait rightly. */
export const budgetHeaders = (r: BudgetRefusal) => ({
  'Retry-After': String(r.retryAfter),
  'RateLimit-Limit': String(r.limit),
  'RateLimit-Remaining': '0',
});

/** The per-user chat budget: 429 in the documented envelope when it is spent. */
export async function takeChatBudget(assistant: ApiDeps['assistant'], p: Principal): Promise<void> {
  const refused = await takeAssistantBudget(assistant, p);
  if (!refused) return;
  throw tooManyRequests(`Chat limit of ${refused.limit} messages reached; retry in ${refused.retryAfter} s`).withHeaders(
    budgetHeaders(refused),
  );
}
