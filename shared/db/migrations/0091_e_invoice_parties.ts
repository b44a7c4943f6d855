import type { Knex } from 'knex';

/**
 * What an EN 16931 e-invoice must say about its seller and buyer and the invoice did not store: the
 * team's postal address, VAT identifier (or national tax number and commercial register number), and a telephone for the seller
 * contact XRechnung asks for; the customer's buyer reference (Leitweg-ID for German public buyers)
 * and the e-invoice format its emails carry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table teams
  add column address_line_1 text,
  add column address_line_2 text,
  add column city text,
  add column zip text,
  add column vat_number text,
  add column tax_number text,
  add column registration_number text,
  add column phone text;
alter table customers
  add column buyer_reference text,
  add column e_invoice_format text check (e_invoice_format in ('facturx', 'xrechnung', 'ubl', 'cii'));
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
alter table customers drop column e_invoice_format, drop column buyer_reference;
alter table teams
  drop column phone,
  drop column registration_number,
  drop column tax_number,
  drop column vat_number,
  drop column zip,
  drop column city,
  drop column address_line_2,
  drop column address_line_1;
`);
}
