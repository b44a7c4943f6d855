import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * The weekly summaries WeeklyInsights computes: one per team and week (Monday to Sunday in the team's
 * time zone), recomputed in place when asked again; `announced_at` makes the notification once per week.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table insights (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  period_type text not null default 'weekly' check (period_type in ('weekly')),
  period_start date not null,
  period_end date not null,
  currency char(3),
  summary jsonb not null,
  announced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, period_type, period_start)
);
`);
  await enableTeamWall(knex, 'insights');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'insights');
  await knex.raw('drop table if exists insights');
}
