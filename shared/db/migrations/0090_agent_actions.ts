import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * A write an AI agent proposed (MCP, the chat assistant): the operation and its input, the preview
 * of what it would change (with the versions of the rows it read, so an approval of data that has
 * changed since is refused), who proposed it, and how it ended. The AgentAction workflow waits for
 * the decision; this row is what the team lists. `agent_action_policies` on the team: the tools that
 * may act without approval, and up to how many rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table agent_actions (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  -- The operation's name as declared in api/operations (transactions.bulkUpdate), and its input.
  operation text not null,
  input jsonb not null,
  preview jsonb not null,
  -- Each row the preview read and its updated_at then: {"<table>:<id>": "<iso>"}.
  versions jsonb not null default '{}',
  status text not null default 'pending'
    check (status in ('pending', 'applied', 'declined', 'expired', 'stale', 'failed')),
  tool text not null,
  via text not null check (via in ('mcp', 'chat')),
  proposed_by_user_id uuid references users(id) on delete set null,
  proposed_by_kind text not null check (proposed_by_kind in ('api_key', 'oauth', 'session')),
  -- The OAuth application or API key that proposed it; null for a person's own session (the chat).
  proposed_by_client_id uuid,
  client_name text,
  decided_by_user_id uuid references users(id) on delete set null,
  decided_via text check (decided_via in ('api', 'chat', 'policy', 'timeout')),
  decided_at timestamptz,
  result jsonb,
  error text,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index agent_actions_team_idx on agent_actions (team_id, created_at desc, id desc);
create index agent_actions_pending_idx on agent_actions (team_id, expires_at) where status = 'pending';
alter table teams add column agent_action_policies jsonb not null default '[]';`);
  await enableTeamWall(knex, 'agent_actions');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'agent_actions');
  await knex.raw('drop table agent_actions');
  await knex.raw('alter table teams drop column agent_action_policies');
}
