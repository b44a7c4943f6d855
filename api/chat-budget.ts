import type { Context } from 'koa';
import type { Principal } from '../shared/domain/auth/principal';
import { tooManyRequests } from '../shared/errors';
import type { ApiDeps } from './deps';

/** The per-user chat budget, with the headers a client needs to wait rightly. */
export async function takeChatBudget(assistant: ApiDeps['assistant'], p: Principal, ctx?: Context): Promise<void> {
  const wait = await assistant.limiter.take(p.userId);
  if (wait === null) return;
  ctx?.set({ 'Retry-After': String(wait), 'RateLimit-Limit': String(assistant.limiter.limit), 'RateLimit-Remaining': '0' });
  throw tooManyRequests(`Chat limit of ${assistant.limiter.limit} messages reached; retry in ${wait} s`);
}
