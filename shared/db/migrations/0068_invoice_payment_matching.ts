import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Incoming bank transactions as invoice payments: a payment may name the transaction that paid it
 * (once: one transaction pays one invoice), and a match that is not certain waits as a suggestion for
 * someone to confirm or decline.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table invoice_payments add column transaction_id uuid references transactions(id) on delete set null;
create unique index invoice_payments_transaction_idx on invoice_payments (transaction_id) where transaction_id is not null;

create table invoice_payment_suggestions (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  invoice_id uuid not null references invoices(id) on delete cascade,
  transaction_id uuid not null references transactions(id) on delete cascade,
  reason text not null check (reason in ('number', 'customer', 'amount')),
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'declined')),
  created_at timestamptz not null default now(),
  decided_at timestamptz,
  decided_by uuid references users(id) on delete set null,
  unique (invoice_id, transaction_id)
);
create index invoice_payment_suggestions_team_idx on invoice_payment_suggestions (team_id, status, created_at desc, id desc);
create index invoice_payment_suggestions_transaction_idx on invoice_payment_suggestions (transaction_id);
`);
  await enableTeamWall(knex, 'invoice_payment_suggestions');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'invoice_payment_suggestions');
  await knex.raw(`
drop table if exists invoice_payment_suggestions;
drop index if exists invoice_payments_transaction_idx;
alter table invoice_payments drop column transaction_id;
`);
}
