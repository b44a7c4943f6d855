import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Webhooks out: a team's endpoints (their signing secret sealed with ENCRYPTION_KEY, since it must be
 * read back to sign), one delivery per event and subscribed endpoint (the outbox: written in the
 * transaction of the change, taken up by the relay that starts its WebhookDelivery workflow), and
 * one row per HTTP attempt.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  url text not null,
  description text,
  event_types text[] not null,
  enabled boolean not null default true,
  secret_encrypted text not null,
  failing_since timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_team_idx on webhook_endpoints (team_id, created_at desc, id desc);
create index webhook_endpoints_subscribed_idx on webhook_endpoints using gin (event_types) where enabled;

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
  event_id uuid not null,
  event_type text not null,
  payload text not null,
  status text not null default 'pending' check (status in ('pending', 'starting', 'running', 'delivered', 'failed')),
  claimed_at timestamptz,
  attempts integer not null default 0,
  last_status_code integer,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (event_id, endpoint_id)
);
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_due_idx on webhook_deliveries (created_at) where status in ('pending', 'starting');

create table webhook_delivery_attempts (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
  attempt integer not null,
  status_code integer,
  response_body text,
  duration_ms integer not null,
  error text,
  created_at timestamptz not null default now(),
  unique (delivery_id, attempt)
);
`);
  for (const table of ['webhook_endpoints', 'webhook_deliveries', 'webhook_delivery_attempts']) await enableTeamWall(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhook_endpoints']) await disableTeamWall(knex, table);
  await knex.raw(`
drop table if exists webhook_delivery_attempts;
drop table if exists webhook_deliveries;
drop table if exists webhook_endpoints;
`);
}
