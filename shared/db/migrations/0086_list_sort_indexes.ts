import type { Knex } from 'knex';

/**
 * Lists take `sort=` (shared/domain/common/sort.ts), and each order a list serves has an index of the
 * team, the field and the id, the tie-breaker every order ends with: the first page and every page
 * after a cursor are then read in the index's order and stop at the page's size, however many rows
 * the team has, instead of sorting all of them. Each index serves its field in both directions.
 * Already indexed: transactions by date (0001's (team_id, date desc, id desc)), customers and invoices
 * by created_at (0001). The amount index replaces (team_id, amount), which it serves as well: every
 * index on transactions is paid for by each synced or imported row. A transaction's name is indexed
 * by its first 200 characters, as the list sorts it: a bank may send a name longer than a btree entry
 * can hold, and that row would fail to insert.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index transactions_team_amount_idx');
  await knex.raw('create index transactions_team_amount_id_idx on transactions (team_id, amount, id)');
  await knex.raw('create index transactions_team_name_id_idx on transactions (team_id, left(name, 200), id)');
  await knex.raw('create index transactions_team_created_at_id_idx on transactions (team_id, created_at, id)');
  await knex.raw('create index customers_team_name_id_idx on customers (team_id, name, id)');
  await knex.raw('create index invoices_team_issue_date_id_idx on invoices (team_id, issue_date, id)');
  await knex.raw('create index invoices_team_due_date_id_idx on invoices (team_id, due_date, id)');
  await knex.raw('create index invoices_team_amount_id_idx on invoices (team_id, amount, id)');
}

export async function down(knex: Knex): Promise<void> {
  for (const index of [
    'invoices_team_amount_id_idx',
    'invoices_team_due_date_id_idx',
    'invoices_team_issue_date_id_idx',
    'customers_team_name_id_idx',
    'transactions_team_created_at_id_idx',
    'transactions_team_name_id_idx',
    'transactions_team_amount_id_idx',
  ])
    await knex.raw(`drop index ${index}`);
  await knex.raw('create index transactions_team_amount_idx on transactions (team_id, amount)');
}
