import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import { webhookHandler, type WebhookSpec } from './pipeline';

/** Provider webhooks, one spec per provider (see pipeline.ts for the shared handling). */
export function webhookSpecs(_deps: ApiDeps): Record<string, WebhookSpec<any, any>> {
  return {
    // '/webhook/bank-a': bankAWebhook(deps), …
  };
}

export function webhookRouter(deps: ApiDeps) {
  const router = new Router<AppState>();
  for (const [path, spec] of Object.entries(webhookSpecs(deps))) router.post(path, webhookHandler(spec, deps));
  return router;
}
