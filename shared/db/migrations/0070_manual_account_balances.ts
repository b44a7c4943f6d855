import type { Knex } from 'knex';

/** Accounts no provider feeds (cash, a card without a feed) keep an opening balance; their balance is computed from it. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table bank_accounts add column opening_balance numeric(19,4);
alter table bank_accounts add column opening_balance_date date;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
alter table bank_accounts drop column opening_balance_date;
alter table bank_accounts drop column opening_balance;
`);
}
