import type { Knex } from 'knex';
import { auditTable } from './0088_audit_trail';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Recurring payments the team makes (shared/domain/recurring-payments): one row per counterparty
 * (its normalised name) and currency, written by the detection, which derives every column from the
 * team's transactions and can run again at any time. Whether one is missing is worked out when it is
 * read, from `next_expected_date` and the day it is read, so nothing has to run for it to turn.
 *
 * Transactions may now be `quarterly`, a frequency the detection finds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table transactions drop constraint if exists transactions_frequency_check;
alter table transactions add constraint transactions_frequency_check
  check (frequency in ('weekly','biweekly','monthly','semi_monthly','quarterly','annually','irregular'));

create table recurring_payments (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  counterparty_key text not null,
  counterparty_name text not null,
  currency char(3) not null,
  frequency text not null check (frequency in ('weekly','biweekly','monthly','quarterly','annually')),
  expected_amount numeric(19,4) not null,
  last_amount numeric(19,4) not null,
  -- The usual amount before the last payment: the last one changed it when the two differ.
  previous_amount numeric(19,4) not null,
  last_date date not null,
  last_transaction_id uuid references transactions(id) on delete set null,
  first_date date not null,
  occurrences integer not null,
  next_expected_date date not null,
  -- The date of the payment that first made it recurring; kept as it is when detected again.
  detected_on date not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, counterparty_key, currency)
);
create index recurring_payments_next_idx on recurring_payments (team_id, next_expected_date, id);
`);
  await enableTeamWall(knex, 'recurring_payments');
  await auditTable(knex, 'recurring_payments');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists audit_row on recurring_payments');
  await disableTeamWall(knex, 'recurring_payments');
  await knex.raw(`
drop table recurring_payments;
update transactions set frequency = 'irregular' where frequency = 'quarterly';
alter table transactions drop constraint if exists transactions_frequency_check;
alter table transactions add constraint transactions_frequency_check
  check (frequency in ('weekly','biweekly','monthly','semi_monthly','annually','irregular'));
`);
}
