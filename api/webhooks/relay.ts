import { claimDueWebhookEvents } from '../../shared/domain/webhook-events/record';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from '../outbox/repeating-pass';
import { webhooks } from './index';

export type WebhookRelay = RepeatingPass;

/**
 * The outbox relay: acts on recorded provider events that could not be acted on when they arrived
 * (Temporal down, a failure, a process killed mid-request), with backoff. Every API process runs one;
 * skip-locked claims keep them from taking the same event.
 */
export function startWebhookRelay(deps: ApiDeps, opts: { intervalMs: number; staleAfterS?: number }): WebhookRelay {
  const byProvider = new Map(webhooks(deps).map((w) => [w.provider, w]));
  const log = deps.logger.child({ component: 'webhook-relay' });
  return repeatingPass(
    async () => {
      const due = await claimDueWebhookEvents(deps.db, { limit: 50, staleAfterS: opts.staleAfterS ?? 60 });
      for (const event of due) {
        const webhook = byProvider.get(event.provider);
        if (webhook) await webhook.replay(event, log);
      }
      if (due.length) log.info({ events: due.length }, 'relayed recorded webhook events');
      return due.length;
    },
    { intervalMs: opts.intervalMs, log, what: 'webhook relay' },
  );
}
