import type { Knex } from 'knex';

/**
 * A supplier's e-invoice read structurally into its inbox item: the syntax it came in, what it says
 * (parties, dates, totals in minor units, VAT by rate, lines, IBAN and payment reference) as jsonb,
 * and, for a file refused as malformed or forged, the status `failed` with the reason.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table inbox_items
  add column e_invoice_format text check (e_invoice_format in ('facturx', 'xrechnung', 'ubl', 'cii')),
  add column e_invoice jsonb,
  add column failure_reason text,
  drop constraint inbox_items_status_check,
  add constraint inbox_items_status_check
    check (status in ('new','processing','analyzing','pending','suggested_match','no_match','done','archived','failed','deleted')),
  drop constraint inbox_items_extraction_method_check,
  add constraint inbox_items_extraction_method_check check (extraction_method in ('pdf_text','ocr','llm','e_invoice'));
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
update inbox_items set status = 'no_match' where status = 'failed';
update inbox_items set extraction_method = null where extraction_method = 'e_invoice';
alter table inbox_items
  drop constraint inbox_items_extraction_method_check,
  add constraint inbox_items_extraction_method_check check (extraction_method in ('pdf_text','ocr','llm')),
  drop constraint inbox_items_status_check,
  add constraint inbox_items_status_check
    check (status in ('new','processing','analyzing','pending','suggested_match','no_match','done','archived','deleted')),
  drop column failure_reason,
  drop column e_invoice,
  drop column e_invoice_format;
`);
}
