import type { Knex } from 'knex';

/**
 * A send is claimed before it goes out: an attempt that Temporal timed out can still be sending when
 * its retry starts (on a busy machine, on another worker), and both found no record and both sent.
 * A claim younger than the lease makes the retry wait and try again; an older one (its attempt died)
 * is taken over. `sent_at` is set once the provider took the message.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table sent_messages add column claimed_at timestamptz not null default now();
alter table sent_messages alter column sent_at drop not null;
alter table sent_messages alter column sent_at drop default;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
delete from sent_messages where sent_at is null;
alter table sent_messages alter column sent_at set default now();
alter table sent_messages alter column sent_at set not null;
alter table sent_messages drop column claimed_at;
`);
}
