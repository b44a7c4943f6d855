import type { Knex } from 'knex';

/**
 * The outcome of each REST POST sent with an Idempotency-Key, per credential, for 24 hours: a client
 * that retries after a timeout gets the stored response instead of a second creation.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table idempotency_keys (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  credential text not null,
  key text not null,
  request_hash char(64) not null,
  state text not null default 'in_progress' check (state in ('in_progress','completed')),
  response_status integer,
  response_body jsonb,
  created_at timestamptz not null default now(),
  unique (credential, key)
);
create index idempotency_keys_team_id_idx on idempotency_keys (team_id);
create index idempotency_keys_created_at_idx on idempotency_keys (created_at);
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists idempotency_keys');
}
