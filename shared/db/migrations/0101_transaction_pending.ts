import type { Knex } from 'knex';

/**
 * Whether the bank still calls a transaction pending, apart from its status: a user may exclude a
 * pending transaction (status 'excluded'), and it must still be known as pending, so that its booked
 * version replaces it and it expires if the bank never books it. Rows excluded before this column
 * cannot be told apart and count as booked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table transactions add column pending boolean not null default false;
update transactions set pending = true where status = 'pending';
drop index if exists transactions_pending_idx;
create index transactions_pending_idx on transactions (team_id, date) where pending;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
drop index if exists transactions_pending_idx;
alter table transactions drop column pending;
create index transactions_pending_idx on transactions (team_id, date) where status = 'pending';
`);
}
