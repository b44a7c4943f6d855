import { z } from 'zod';
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
      metadata: z.object({ team_id: z.string().optional(), plan: z.string().optional() }).passthrough().optional(),
      customer: z.object({ external_id: z.string().nullable().optional() }).passthrough().optional(),
      product: z.object({ name: z.string().optional() }).passthrough().optional(),
    })
    .passthrough(),
});
type Payload = z.infer<typeof payload>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function planOf(d: Payload['data']): 'starter' | 'pro' | null {
  const name = (d.metadata?.plan ?? d.product?.name ?? '').toLowerCase();
  if (name.includes('pro')) return 'pro';
  if (name.includes('starter')) return 'starter';
  return null;
}

/**
 * POST /webhook/subscriptions (Standard Webhooks, as Polar sends them). Created/active turn the paid
 * plan on; canceled keeps it to the end of the period; past_due flags it; revoked ends it now.
 */
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
      if (!teamId || !UUID.test(teamId)) return { outcome: 'ignored' };
      const team = await deps.db('teams').where({ id: teamId }).first();
      if (!team) return { outcome: 'ignored' };
      const base = { subscriptionId: d.id, billingCustomerId: d.customer_id ?? team.billingCustomerId, subscriptionCurrentPeriodEnd: d.current_period_end ?? null, updatedAt: new Date() };
      const plan = planOf(d) ?? (team.plan === 'trial' ? 'starter' : team.plan);
      let patch: Record<string, unknown>;
      switch (p.type) {
        case 'subscription.created':
          patch = { ...base, plan, subscriptionStatus: d.status === 'trialing' ? 'trialing' : d.status === 'active' ? 'active' : 'trialing', canceledAt: null };
          break;
        case 'subscription.active':
        case 'subscription.uncanceled':
          patch = { ...base, plan, subscriptionStatus: 'active', canceledAt: null };
          break;
        case 'subscription.updated':
          patch = { ...base, plan };
          break;
        case 'subscription.canceled':
          patch = { ...base, subscriptionStatus: 'canceled', canceledAt: new Date() };
          break;
        case 'subscription.past_due':
          patch = { ...base, subscriptionStatus: 'past_due' };
          break;
        case 'subscription.revoked':
          patch = { ...base, plan: 'trial', subscriptionStatus: 'revoked', canceledAt: team.canceledAt ?? new Date() };
          break;
        default:
          return { outcome: 'ignored', teamId };
      }
      await deps.db('teams').where({ id: teamId }).update(patch);
      return { outcome: 'processed', teamId };
    },
  };
}
