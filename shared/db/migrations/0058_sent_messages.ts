import type { Knex } from 'knex';

/**
 * The chat messages activities have sent, by activity (workflow, run, activity id): a retry of an
 * attempt whose send went out but whose completion Temporal never recorded (a worker cut off, a
 * server too busy to take it) finds the row and does not message the person again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table sent_messages (
  activity_key text primary key,
  sent_at timestamptz not null default now()
);
create index sent_messages_sent_at_idx on sent_messages (sent_at);
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists sent_messages');
}
