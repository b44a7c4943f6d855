import type { Knex } from 'knex';

/**
 * webhook_events becomes the outbox of provider events: each keeps what acting on it needs, so an
 * event that could not be acted on at once (Temporal down, a crash mid-request) is acted on later by
 * the relay, with backoff, instead of depending on everything being up at request time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table webhook_events
  add column payload jsonb,
  add column attempts integer not null default 0,
  add column next_attempt_at timestamptz;
create index webhook_events_pending_idx on webhook_events (next_attempt_at, received_at) where outcome in ('received', 'failed');
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
drop index if exists webhook_events_pending_idx;
alter table webhook_events drop column payload, drop column attempts, drop column next_attempt_at;
`);
}
