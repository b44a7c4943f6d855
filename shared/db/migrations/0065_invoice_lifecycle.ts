import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * What InvoiceLifecycle needs: when a scheduled invoice goes out and whether it goes by email; the
 * team's reminder cadence (days after the due date) and, per customer, whether they get reminders
 * (off by default); payments that pay part of an invoice; and every email delivery, claimed before
 * it is sent so a retried activity sends each one once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table invoices add column email_delivery boolean not null default false;
alter table invoices add column amount_paid numeric(19,4) not null default 0;
alter table teams add column invoice_reminder_days smallint[] not null default '{3,7,14}'
  check (cardinality(invoice_reminder_days) <= 10 and 1 <= all(invoice_reminder_days) and 365 >= all(invoice_reminder_days));
alter table customers add column invoice_reminders boolean not null default false;

create table invoice_payments (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  invoice_id uuid not null references invoices(id) on delete cascade,
  amount numeric(19,4) not null check (amount > 0),
  paid_at timestamptz not null,
  reference text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index invoice_payments_invoice_id_idx on invoice_payments (invoice_id, paid_at);
create index invoice_payments_team_id_idx on invoice_payments (team_id);

create table invoice_deliveries (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  invoice_id uuid not null references invoices(id) on delete cascade,
  kind text not null check (kind in ('invoice', 'reminder')),
  -- 0 for the invoice itself, 1.. for the reminders in the team's cadence.
  sequence smallint not null,
  recipient text not null,
  message_id text not null,
  claimed_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (invoice_id, kind, sequence)
);
create index invoice_deliveries_team_id_idx on invoice_deliveries (team_id);

-- Each emailed delivery carries a link of its own (a resent email the same one), so an invoice may
-- have several live links; making a link by hand still revokes them all.
drop index invoice_links_live_idx;
create index invoice_links_live_idx on invoice_links (invoice_id) where revoked_at is null;
`);
  await enableTeamWall(knex, 'invoice_payments');
  await enableTeamWall(knex, 'invoice_deliveries');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'invoice_deliveries');
  await disableTeamWall(knex, 'invoice_payments');
  await knex.raw(`
update invoice_links l set revoked_at = now()
 where l.revoked_at is null
   and exists (select 1 from invoice_links n where n.invoice_id = l.invoice_id and n.revoked_at is null and n.created_at > l.created_at);
drop index invoice_links_live_idx;
create unique index invoice_links_live_idx on invoice_links (invoice_id) where revoked_at is null;
drop table if exists invoice_deliveries;
drop table if exists invoice_payments;
alter table customers drop column invoice_reminders;
alter table teams drop column invoice_reminder_days;
alter table invoices drop column amount_paid;
alter table invoices drop column email_delivery;
`);
}
