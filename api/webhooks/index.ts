import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import { bankAWebhook } from './bank-a';
import { bankBWebhook } from './bank-b';
import { inboxWebhook } from './inbox';
import { messagingVerification, messagingWebhook } from './messaging';
import { paymentsWebhook } from './payments';
import { webhookHandler, type WebhookSpec } from './pipeline';
import { subscriptionsWebhook } from './subscriptions';

/** Provider webhooks, one spec per provider (see pipeline.ts for the shared handling). */
export function webhookSpecs(deps: ApiDeps): Record<string, WebhookSpec<any, any>> {
  return {
    '/webhook/bank-a': bankAWebhook(deps),
    '/webhook/bank-b': bankBWebhook(deps),
    '/webhook/payments': paymentsWebhook(deps),
    '/webhook/subscriptions': subscriptionsWebhook(deps),
    '/webhook/messaging': messagingWebhook(deps),
    '/webhook/inbox': inboxWebhook(deps),
  };
}

export function webhookRouter(deps: ApiDeps) {
  const router = new Router<AppState>();
  for (const [path, spec] of Object.entries(webhookSpecs(deps))) router.post(path, webhookHandler(spec, deps));
  messagingVerification(router, deps);
  return router;
}
