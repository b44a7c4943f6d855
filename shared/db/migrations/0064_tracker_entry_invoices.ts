import type { Knex } from 'knex';

/** Which invoice billed a tracked entry: deleting that draft makes its entries billable again. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table tracker_entries add column invoice_id uuid references invoices(id) on delete set null;
create index tracker_entries_invoice_id_idx on tracker_entries (invoice_id) where invoice_id is not null;
create index tracker_entries_unbilled_idx on tracker_entries (team_id, project_id, date) where not billed;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists tracker_entries_unbilled_idx');
  await knex.raw('alter table tracker_entries drop column invoice_id');
}
