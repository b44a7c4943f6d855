import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Notifications as each member sees them: read and archived per member (a team-wide notice read by
 * one member stays unread for the others), which types each member wants in the app and by email,
 * and the outbox of emails to send (one row per notification, member and channel; the
 * NotificationDelivery workflow moves it to `sent` once, so a restarted worker sends nothing twice).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table notification_states (
  notification_id uuid not null references notifications(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  status text not null check (status in ('unread','read','archived')),
  updated_at timestamptz not null default now(),
  primary key (notification_id, user_id)
);
create index notification_states_team_user_idx on notification_states (team_id, user_id, status);

create table notification_settings (
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  type text not null,
  in_app boolean not null default true,
  email boolean not null default false,
  updated_at timestamptz not null default now(),
  primary key (team_id, user_id, type)
);

create table notification_deliveries (
  id uuid primary key default gen_random_uuid(),
  notification_id uuid not null references notifications(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  channel text not null default 'email' check (channel in ('email')),
  status text not null default 'pending' check (status in ('pending','started','sending','sent','failed')),
  claimed_at timestamptz,
  attempts integer not null default 0,
  message_id text,
  sent_at timestamptz,
  error text,
  created_at timestamptz not null default now(),
  unique (notification_id, user_id, channel)
);
create index notification_deliveries_due_idx on notification_deliveries (created_at) where status in ('pending','started');
create index notifications_team_user_idx on notifications (team_id, user_id, created_at desc, id desc);
`);
  for (const table of ['notification_states', 'notification_settings', 'notification_deliveries']) await enableTeamWall(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['notification_states', 'notification_settings', 'notification_deliveries']) await disableTeamWall(knex, table);
  await knex.raw('drop index if exists notifications_team_user_idx');
  await knex.raw('drop table if exists notification_deliveries, notification_settings, notification_states');
}
