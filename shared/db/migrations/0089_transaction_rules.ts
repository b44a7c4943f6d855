import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Transaction rules: conditions in AND/OR groups and the actions they take, applied to every new
 * transaction and, on request, to existing ones by an ApplyRules run (one row of
 * transaction_rule_runs, whose counters and keyset position are written with each batch it applies).
 *
 * On transactions: the provider's own category (bank-a's personal_finance_category, bank-b's
 * category), kept so rules can match it; `manual_fields`, the fields a user set by hand, which no
 * rule overwrites; and `field_sources`, why each field has its value (field → {by, ruleId, ruleName,
 * explanation}), which `GET /transactions/{id}` shows for the category.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table transactions add column provider_category text;
alter table transactions add column manual_fields text[] not null default '{}';
alter table transactions add column field_sources jsonb not null default '{}';

create table transaction_rules (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  name text not null,
  enabled boolean not null default true,
  -- Lower runs first; ties by creation.
  priority integer not null default 0,
  stop_after boolean not null default false,
  conditions jsonb not null,
  actions jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index transaction_rules_team_idx on transaction_rules (team_id, priority, created_at, id);

create table transaction_rule_runs (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  rule_id uuid not null references transaction_rules(id) on delete cascade,
  dry_run boolean not null,
  filter jsonb not null default '{}',
  status text not null default 'pending' check (status in ('pending', 'running', 'completed', 'failed')),
  scanned integer not null default 0,
  matched integer not null default 0,
  changed integer not null default 0,
  -- The keyset position (date, id) after the last batch applied: a resumed run goes on from here.
  last_date date,
  last_id uuid,
  error text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz
);
create index transaction_rule_runs_team_idx on transaction_rule_runs (team_id, created_at desc, id desc);
create index transaction_rule_runs_rule_idx on transaction_rule_runs (rule_id);
`);
  await enableTeamWall(knex, 'transaction_rules');
  await enableTeamWall(knex, 'transaction_rule_runs');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'transaction_rule_runs');
  await disableTeamWall(knex, 'transaction_rules');
  await knex.raw(`
drop table transaction_rule_runs;
drop table transaction_rules;
alter table transactions drop column field_sources;
alter table transactions drop column manual_fields;
alter table transactions drop column provider_category;
`);
}
