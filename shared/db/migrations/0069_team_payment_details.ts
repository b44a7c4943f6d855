import type { Knex } from 'knex';

/** How customers pay the team (bank account, IBAN and BIC, or a payment link), printed on its invoices. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table teams add column invoice_payment_details text check (char_length(invoice_payment_details) <= 1000)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table teams drop column invoice_payment_details`);
}
