import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import { bankAWebhook } from './bank-a';
import { bankBWebhook } from './bank-b';
import { inboxWebhook } from './inbox';
import { messagingVerification, messagingWebhook } from './messaging';
import { paymentsWebhook } from './payments';
import { mountWebhook, type MountedWebhook } from './pipeline';
import { subscriptionsWebhook } from './subscriptions';

/** Every provider's webhook (see pipeline.ts for the shared handling); the router and the relay both use them. */
export function webhooks(deps: ApiDeps): MountedWebhook[] {
  const failures = deps.limiters.limiter({
    keyPrefix: 'webhook-auth-failures',
    points: deps.config.AUTH_FAILURES_PER_MINUTE,
    durationS: 60,
  });
  return [
    mountWebhook(bankAWebhook(deps), deps, failures),
    mountWebhook(bankBWebhook(deps), deps, failures),
    mountWebhook(paymentsWebhook(deps), deps, failures),
    mountWebhook(subscriptionsWebhook(deps), deps, failures),
    mountWebhook(messagingWebhook(deps), deps, failures),
    mountWebhook(inboxWebhook(deps), deps, failures),
  ];
}

export function webhookRouter(deps: ApiDeps) {
  const router = new Router<AppState>();
  for (const w of webhooks(deps)) router.post(`/webhook/${w.provider}`, w.middleware);
  messagingVerification(router, deps);
  return router;
}
