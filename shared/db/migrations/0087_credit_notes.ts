import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Issued invoices are locked and corrected by credit notes. Invoice numbers are given when an invoice
 * is issued (a draft has none unless one was chosen by hand), from a per-team counter row that the
 * issuing transaction locks, so an issued series has neither gaps nor repeats; credit notes have a
 * series of their own per team and year. Existing numbers stay as they are, and each team's counter
 * starts after the highest number of its current prefix.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table invoices alter column invoice_number drop not null;
-- What credit notes have taken off the invoice (gross), beside amount_paid.
alter table invoices add column amount_credited numeric(19,4) not null default 0 check (amount_credited >= 0);

create table document_number_counters (
  team_id uuid not null references teams(id) on delete cascade,
  -- 'invoice:<prefix>' or 'credit-note:<year>'
  series text not null,
  last_number bigint not null check (last_number >= 0),
  primary key (team_id, series)
);
insert into document_number_counters (team_id, series, last_number)
select t.id, 'invoice:' || t.invoice_prefix, max(substring(i.invoice_number from char_length(t.invoice_prefix) + 1)::bigint)
  from teams t
  join invoices i on i.team_id = t.id and left(i.invoice_number, char_length(t.invoice_prefix)) = t.invoice_prefix
   and substring(i.invoice_number from char_length(t.invoice_prefix) + 1) ~ '^[0-9]{1,15}$'
 group by t.id, t.invoice_prefix;

create table credit_notes (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  -- An invoice with credit notes is part of the books: it cannot be deleted while they exist.
  invoice_id uuid not null references invoices(id) on delete restrict,
  credit_note_number text not null,
  -- 1, 2, … per invoice: its email's delivery key.
  sequence smallint not null check (sequence > 0),
  -- EN 16931 / UNTDID 1001: 381 is a credit note.
  type_code text not null default '381' check (type_code = '381'),
  currency char(3) not null,
  subtotal numeric(19,4) not null,
  vat numeric(19,4) not null,
  tax numeric(19,4) not null,
  discount numeric(19,4) not null,
  amount numeric(19,4) not null check (amount > 0),
  reason text,
  issue_date date not null,
  email_delivery boolean not null default false,
  sent_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  unique (team_id, credit_note_number),
  unique (invoice_id, sequence)
);
create index credit_notes_team_id_idx on credit_notes (team_id, created_at desc, id desc);
create index credit_notes_unsent_idx on credit_notes (invoice_id) where email_delivery and sent_at is null;

create table credit_note_line_items (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  credit_note_id uuid not null references credit_notes(id) on delete cascade,
  position smallint not null,
  -- The invoice line it credits (its position on the invoice).
  invoice_line smallint not null,
  name text not null,
  quantity numeric(19,4) not null,
  unit text,
  price numeric(19,4) not null,
  vat_rate numeric(5,2),
  tax_rate numeric(5,2),
  -- As printed, in the currency's minor unit: what is left to credit on a line is its own amounts less these.
  net numeric(19,4) not null,
  vat_amount numeric(19,4) not null,
  tax_amount numeric(19,4) not null,
  created_at timestamptz not null default now(),
  unique (credit_note_id, position)
);
create index credit_note_line_items_team_id_idx on credit_note_line_items (team_id);

alter table invoice_deliveries drop constraint invoice_deliveries_kind_check;
alter table invoice_deliveries add constraint invoice_deliveries_kind_check check (kind in ('invoice', 'reminder', 'credit_note'));
`);
  await enableTeamWall(knex, 'document_number_counters');
  await enableTeamWall(knex, 'credit_notes');
  await enableTeamWall(knex, 'credit_note_line_items');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'credit_note_line_items');
  await disableTeamWall(knex, 'credit_notes');
  await disableTeamWall(knex, 'document_number_counters');
  await knex.raw(`
delete from invoice_deliveries where kind = 'credit_note';
alter table invoice_deliveries drop constraint invoice_deliveries_kind_check;
alter table invoice_deliveries add constraint invoice_deliveries_kind_check check (kind in ('invoice', 'reminder'));
drop table if exists credit_note_line_items;
drop table if exists credit_notes;
drop table if exists document_number_counters;
alter table invoices drop column amount_credited;
update invoices set invoice_number = 'DRAFT-' || id where invoice_number is null;
alter table invoices alter column invoice_number set not null;
`);
}
