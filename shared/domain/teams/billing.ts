import type { PartialModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import type { WebhookOutcome } from '../webhook-events/record';

export type Plan = Team['plan'];

/** A change to a team's subscription, as the billing provider reports it. */
export interface SubscriptionEvent {
  kind: 'created' | 'active' | 'uncanceled' | 'updated' | 'canceled' | 'past_due' | 'revoked';
  teamId: string;
  subscriptionId: string;
  /** The provider's own status (created: `trialing` or `active`). */
  status?: string;
  customerId?: string;
  currentPeriodEnd: string | null;
  /** The paid plan the product names, when it names one. */
  plan: Exclude<Plan, 'trial'> | null;
}

/**
 * Follows the subscription on the team: created/active/uncanceled turn the paid plan on; canceled
 * keeps it to the end of the period; past_due flags it; revoked ends it now.
 */
export async function applySubscriptionEvent(db: Db, e: SubscriptionEvent): Promise<WebhookOutcome> {
  const team = await Team.query(db).findById(e.teamId);
  if (!team) return { outcome: 'ignored' };
  const base: PartialModelObject<Team> = {
    subscriptionId: e.subscriptionId,
    billingCustomerId: e.customerId ?? team.billingCustomerId,
    subscriptionCurrentPeriodEnd: e.currentPeriodEnd === null ? null : new Date(e.currentPeriodEnd),
    updatedAt: new Date(),
  };
  const plan = e.plan ?? (team.plan === 'trial' ? 'starter' : team.plan);
  const now = new Date();
  const patch: Record<SubscriptionEvent['kind'], PartialModelObject<Team>> = {
    created: { plan, subscriptionStatus: e.status === 'active' ? 'active' : 'trialing', canceledAt: null },
    active: { plan, subscriptionStatus: 'active', canceledAt: null },
    uncanceled: { plan, subscriptionStatus: 'active', canceledAt: null },
    updated: { plan },
    canceled: { subscriptionStatus: 'canceled', canceledAt: now },
    past_due: { subscriptionStatus: 'past_due' },
    revoked: { plan: 'trial', subscriptionStatus: 'revoked', canceledAt: team.canceledAt ?? now },
  };
  await Team.query(db)
    .findById(team.id)
    .patch({ ...base, ...patch[e.kind] });
  return { outcome: 'processed', teamId: team.id };
}
