import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * Reports read daily totals, not transactions: one row per team, day, currency, category and
 * recurring flag, kept by statement-level triggers on `transactions` (so a sync of 100,000 rows costs
 * one grouped upsert, and no code path can forget it). Only rows that count for reports are summed:
 * posted or completed, not an internal transfer. Excluded categories and currency conversion are
 * applied when reading, because both change after the fact (a category is excluded, a rate arrives).
 *
 * `eur_rate(currency, day)` is the stored reference rate (units per euro) of the day or up to a week
 * before (weekends, bank holidays), null when none: reports convert with it and list what it cannot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table transaction_daily_totals (
  team_id uuid not null references teams(id) on delete cascade,
  date date not null,
  currency char(3) not null,
  category_slug text not null default '', -- '' is uncategorised: a primary key column cannot be null
  recurring boolean not null,
  income numeric(19,4) not null default 0,
  expenses numeric(19,4) not null default 0, -- money out, as a positive number
  income_tax numeric(19,4) not null default 0,
  expense_tax numeric(19,4) not null default 0,
  income_count integer not null default 0,
  expense_count integer not null default 0,
  primary key (team_id, date, currency, category_slug, recurring)
);

create function eur_rate(currency char(3), day date) returns numeric
language sql stable parallel safe as $$
  select case when currency = 'EUR' then 1::numeric else (
    select r.rate from exchange_rates r
     where r.base = 'EUR' and r.quote = currency and r.date between day - 7 and day
     order by r.date desc limit 1) end
$$;

-- The tax in a transaction: its own tax amount, else what its tax rate implies (the amount is gross).
create function transaction_tax(amount numeric, tax_amount numeric, tax_rate numeric) returns numeric
language sql immutable parallel safe as $$
  select coalesce(abs(tax_amount), abs(amount) * tax_rate / (100 + tax_rate), 0)
$$;

create function transaction_totals_apply() returns trigger language plpgsql as $$
declare
  cols constant text := 'team_id, date, currency, category_slug, recurring, amount, tax_amount, tax_rate, status, internal';
  changed constant text := '(o.team_id, o.date, o.currency, o.category_slug, o.recurring, o.amount, o.tax_amount, o.tax_rate, o.status, o.internal)
    is distinct from (n.team_id, n.date, n.currency, n.category_slug, n.recurring, n.amount, n.tax_amount, n.tax_rate, n.status, n.internal)';
  delta text;
begin
  -- Each event reads only the transition tables it has; the rows carry +1 or -1.
  if tg_op = 'INSERT' then
    delta := format('select %s, 1 as sign from new_rows', cols);
  elsif tg_op = 'DELETE' then
    -- A team being deleted takes its totals with it (cascade): nothing to subtract.
    delta := format('select %s, -1 as sign from old_rows o where exists (select 1 from teams t where t.id = o.team_id)', cols);
  else
    -- Only rows whose reported figures changed: a note or a match does not touch the totals.
    delta := format('select o.*, -1 as sign from (select %1$s, id from old_rows) o join new_rows n using (id) where %2$s
                     union all
                     select n.*, 1 from (select %1$s, id from new_rows) n join old_rows o using (id) where %2$s', cols, changed);
  end if;
  execute format($q$
    insert into transaction_daily_totals as t
      (team_id, date, currency, category_slug, recurring, income, expenses, income_tax, expense_tax, income_count, expense_count)
    select d.team_id, d.date, d.currency, coalesce(d.category_slug, ''), d.recurring,
           coalesce(sum(d.sign * d.amount) filter (where d.amount > 0), 0),
           coalesce(sum(-d.sign * d.amount) filter (where d.amount < 0), 0),
           coalesce(sum(d.sign * transaction_tax(d.amount, d.tax_amount, d.tax_rate)) filter (where d.amount > 0), 0),
           coalesce(sum(d.sign * transaction_tax(d.amount, d.tax_amount, d.tax_rate)) filter (where d.amount < 0), 0),
           coalesce(sum(d.sign) filter (where d.amount > 0), 0),
           coalesce(sum(d.sign) filter (where d.amount < 0), 0)
      from (%s) d
     where d.status in ('posted', 'completed') and not d.internal
     group by 1, 2, 3, 4, 5
     -- One order for every writer, so two syncs of the same team cannot deadlock on their totals.
     order by 1, 2, 3, 4, 5
    on conflict (team_id, date, currency, category_slug, recurring) do update set
      income = t.income + excluded.income,
      expenses = t.expenses + excluded.expenses,
      income_tax = t.income_tax + excluded.income_tax,
      expense_tax = t.expense_tax + excluded.expense_tax,
      income_count = t.income_count + excluded.income_count,
      expense_count = t.expense_count + excluded.expense_count
  $q$, delta);
  return null;
end $$;

create trigger transactions_totals_insert after insert on transactions
  referencing new table as new_rows for each statement execute function transaction_totals_apply();
create trigger transactions_totals_update after update on transactions
  referencing old table as old_rows new table as new_rows for each statement execute function transaction_totals_apply();
create trigger transactions_totals_delete after delete on transactions
  referencing old table as old_rows for each statement execute function transaction_totals_apply();

insert into transaction_daily_totals
  (team_id, date, currency, category_slug, recurring, income, expenses, income_tax, expense_tax, income_count, expense_count)
select team_id, date, currency, coalesce(category_slug, ''), recurring,
       coalesce(sum(amount) filter (where amount > 0), 0),
       coalesce(-sum(amount) filter (where amount < 0), 0),
       coalesce(sum(transaction_tax(amount, tax_amount, tax_rate)) filter (where amount > 0), 0),
       coalesce(sum(transaction_tax(amount, tax_amount, tax_rate)) filter (where amount < 0), 0),
       count(*) filter (where amount > 0),
       count(*) filter (where amount < 0)
  from transactions
 where status in ('posted', 'completed') and not internal
 group by 1, 2, 3, 4, 5;
`);
  await enableTeamWall(knex, 'transaction_daily_totals');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'transaction_daily_totals');
  await knex.raw(`
drop trigger if exists transactions_totals_insert on transactions;
drop trigger if exists transactions_totals_update on transactions;
drop trigger if exists transactions_totals_delete on transactions;
drop function if exists transaction_totals_apply();
drop function if exists transaction_tax(numeric, numeric, numeric);
drop function if exists eur_rate(char, date);
drop table if exists transaction_daily_totals;
`);
}
