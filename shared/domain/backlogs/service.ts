import type { Db } from '../../db/knex';

/** What waits in the outboxes, across every team: the figures /metrics reports, never a row or an id. */
export interface Backlogs {
  /** Provider webhook events recorded and not yet acted on (received, or failed and due again). */
  webhookEventsPending: number;
  /** Seconds since the oldest of them was received; 0 when there is none. */
  webhookEventsOldestSeconds: number;
  /** Outgoing webhook deliveries no WebhookDelivery run has taken up yet (pending, starting). */
  webhookDeliveriesPending: number;
  webhookDeliveriesOldestSeconds: number;
  /** Enabled endpoints whose last attempts fail, and endpoints switched off after failing too long. */
  webhookEndpointsFailing: number;
  webhookEndpointsDisabled: number;
  /** Notification emails no NotificationDelivery run has taken up yet. */
  notificationEmailsPending: number;
  notificationEmailsOldestSeconds: number;
}

/**
 * One round trip, each part read through the partial index its relay claims by (so a scrape costs
 * the size of the backlog, not of the tables). Outside any team's wall: the pooled connection sees
 * every team, as the relays do.
 */
export async function readBacklogs(db: Db): Promise<Backlogs> {
  const { rows } = await db.raw<{ rows: Record<string, string | number | null>[] }>(`
    with events as (
      select count(*) as n, extract(epoch from now() - min(received_at)) as oldest
        from webhook_events
       where outcome in ('received', 'failed') and (outcome = 'received' or next_attempt_at is not null)),
    deliveries as (
      select count(*) as n, extract(epoch from now() - min(created_at)) as oldest
        from webhook_deliveries where status in ('pending', 'starting')),
    endpoints as (
      select count(*) filter (where enabled and failing_since is not null) as failing,
             count(*) filter (where not enabled and disabled_at is not null) as disabled
        from webhook_endpoints),
    emails as (
      select count(*) as n, extract(epoch from now() - min(created_at)) as oldest
        from notification_deliveries where status in ('pending', 'started'))
    select events.n as events_n, events.oldest as events_oldest, deliveries.n as deliveries_n,
           deliveries.oldest as deliveries_oldest, endpoints.failing, endpoints.disabled,
           emails.n as emails_n, emails.oldest as emails_oldest
      from events, deliveries, endpoints, emails`);
  const r = rows[0];
  const n = (v: string | number | null | undefined) => Math.max(0, Number(v ?? 0));
  return {
    webhookEventsPending: n(r.events_n),
    webhookEventsOldestSeconds: n(r.events_oldest),
    webhookDeliveriesPending: n(r.deliveries_n),
    webhookDeliveriesOldestSeconds: n(r.deliveries_oldest),
    webhookEndpointsFailing: n(r.failing),
    webhookEndpointsDisabled: n(r.disabled),
    notificationEmailsPending: n(r.emails_n),
    notificationEmailsOldestSeconds: n(r.emails_oldest),
  };
}
