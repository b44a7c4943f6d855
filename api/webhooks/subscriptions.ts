import { z } from 'zod';
import { applySubscriptionEvent, type SubscriptionEvent } from '../../shared/domain/teams/billing';
import type { ApiDeps } from '../deps';
import type { WebhookSpec } from './pipeline';
import { verifyStandardWebhook } from './signatures/standard-webhooks';

const payload = z.object({
  type: z.string().min(1),
  timestamp: z.string().optional(),
  data: z
    .object({
      id: z.string(),
      status: z.string().optional(),
      customer_id: z.string().optional(),
      current_period_end: z.string().nullable().optional(),
      // A team id we did not issue is dropped (the event is ignored), not refused.
      metadata: z
        .object({ team_id: z.guid().optional().catch(undefined), plan: z.string().optional() })
        .loose()
        .optional(),
      customer: z
        .object({ external_id: z.guid().nullable().optional().catch(null) })
        .loose()
        .optional(),
      product: z.object({ name: z.string().optional() }).loose().optional(),
    })
    .loose(),
});
type Payload = z.infer<typeof payload>;

function planOf(d: Payload['data']): 'starter' | 'pro' | null {
  const name = (d.metadata?.plan ?? d.product?.name ?? '').toLowerCase();
  if (name.includes('pro')) return 'pro';
  if (name.includes('starter')) return 'starter';
  return null;
}

const KINDS = new Map<string, SubscriptionEvent['kind']>([
  ['subscription.created', 'created'],
  ['subscription.active', 'active'],
  ['subscription.uncanceled', 'uncanceled'],
  ['subscription.updated', 'updated'],
  ['subscription.canceled', 'canceled'],
  ['subscription.past_due', 'past_due'],
  ['subscription.revoked', 'revoked'],
]);

/** POST /webhook/subscriptions (Standard Webhooks, as Polar sends them). */
export function subscriptionsWebhook(deps: ApiDeps): WebhookSpec<Payload, Payload> {
  return {
    provider: 'subscriptions',
    maxBytes: 1024 * 1024,
    verify: (req) => verifyStandardWebhook(req.headers, req.raw, deps.config.SUBSCRIPTIONS_WEBHOOK_SECRET, 300),
    schema: payload,
    events: (p, req) => [{ key: String(req.headers['webhook-id']), type: p.type, event: p }],
    async handle({ event: p }) {
      const d = p.data;
      const teamId = d.metadata?.team_id ?? d.customer?.external_id ?? undefined;
      const kind = KINDS.get(p.type);
      if (!teamId || !kind) return { outcome: 'ignored' };
      return applySubscriptionEvent(deps.db, {
        kind,
        teamId,
        subscriptionId: d.id,
        status: d.status,
        customerId: d.customer_id,
        currentPeriodEnd: d.current_period_end ?? null,
        plan: planOf(d),
      });
    },
  };
}
