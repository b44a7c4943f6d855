import type { Knex } from 'knex';

/**
 * Several teams per user: team settings (fiscal year, time zone), a team being deleted (hidden from
 * everyone at once while its rows go in batches), user preferences, and invitations by email.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table teams
  add column fiscal_year_start_month smallint check (fiscal_year_start_month between 1 and 12),
  add column timezone text,
  add column deletion_requested_at timestamptz,
  add column deletion_requested_by uuid references users(id) on delete set null;

alter table users
  add column date_format text check (date_format in ('dd/MM/yyyy','MM/dd/yyyy','yyyy-MM-dd','dd.MM.yyyy')),
  add column week_starts_on_monday boolean not null default false,
  add column time_format smallint check (time_format in (12, 24));

create table team_invitations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  email text not null,
  role text not null default 'member' check (role in ('owner','member')),
  status text not null default 'pending' check (status in ('pending','accepted','declined','revoked','expired')),
  invited_by uuid references users(id) on delete set null,
  accepted_by uuid references users(id) on delete set null,
  expires_at timestamptz not null,
  decided_at timestamptz,
  reminded_at timestamptz,
  created_at timestamptz not null default now()
);
create index team_invitations_team_id_idx on team_invitations (team_id, created_at desc, id desc);
create index team_invitations_email_idx on team_invitations (lower(email)) where status = 'pending';
-- One open invitation per team and address: inviting again while one waits is a conflict, not a second email.
create unique index team_invitations_pending_unique on team_invitations (team_id, lower(email)) where status = 'pending';
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
drop table if exists team_invitations;
alter table users drop column if exists date_format, drop column if exists week_starts_on_monday, drop column if exists time_format;
alter table teams drop column if exists fiscal_year_start_month, drop column if exists timezone,
  drop column if exists deletion_requested_at, drop column if exists deletion_requested_by;
`);
}
