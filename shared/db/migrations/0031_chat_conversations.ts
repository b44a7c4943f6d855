import type { Knex } from 'knex';

/**
 * The assistant's conversations, each of one user in one team. A message keeps the tool calls that
 * produced it (with their results) and the citations tying its figures to those results.
 * Nothing wrote chat_messages before this, so rows without a conversation cannot exist; any are dropped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table chat_conversations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  title text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index chat_conversations_team_user_idx on chat_conversations (team_id, user_id, created_at desc, id desc);

delete from chat_messages m where not exists (select 1 from chat_conversations c where c.id = m.chat_id);
alter table chat_messages
  add constraint chat_messages_chat_id_fkey foreign key (chat_id) references chat_conversations(id) on delete cascade,
  add column tool_calls jsonb not null default '[]',
  add column citations jsonb not null default '[]';
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
alter table chat_messages drop constraint if exists chat_messages_chat_id_fkey,
  drop column if exists tool_calls, drop column if exists citations;
drop table if exists chat_conversations;
`);
}
