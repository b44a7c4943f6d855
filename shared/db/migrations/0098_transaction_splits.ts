import type { Knex } from 'knex';

/**
 * A transaction split into parts (shared/domain/transactions/splits.ts): `splits` holds the parts in
 * order, each `{amount, categorySlug, tags, note}`, or is null for a whole transaction. The parts live
 * on the row itself so that the statement-level totals triggers of migration 0059 see them in the
 * same transition tables as the amount they divide: a split, an unsplit and a deletion each move the
 * totals in the statement that makes them, with no second table to read in an order.
 *
 * `transaction_totals_apply` is replaced: a split transaction counts as its parts, each in its own
 * category with its own amount and its share of the transaction's tax. A split whose whole changes
 * (a manual edit of the amount or currency, a bank that books a different amount) no longer adds up,
 * so the row-level trigger drops it: the bank is the source of truth for the whole.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table transactions add column splits jsonb
  check (splits is null or (jsonb_typeof(splits) = 'array' and jsonb_array_length(splits) >= 2));

create function transaction_splits_drop() returns trigger language plpgsql as $$
begin
  new.splits := null;
  return new;
end $$;

create trigger transactions_splits_drop before update of amount, currency on transactions
  for each row when (new.splits is not null and (old.amount, old.currency) is distinct from (new.amount, new.currency))
  execute function transaction_splits_drop();

${totalsApplyFunction(TOTALS_WRITE)}`);
}

export async function down(knex: Knex): Promise<void> {
  // The totals of split transactions were counted by parts: count them whole again before the column goes.
  await knex.raw(`
update transactions set splits = null where splits is not null;
drop trigger if exists transactions_splits_drop on transactions;
drop function if exists transaction_splits_drop();
create or replace function transaction_totals_apply() returns trigger language plpgsql as $$
declare
  cols constant text := 'team_id, date, currency, category_slug, recurring, amount, tax_amount, tax_rate, status, internal';
  changed constant text := '(o.team_id, o.date, o.currency, o.category_slug, o.recurring, o.amount, o.tax_amount, o.tax_rate, o.status, o.internal)
    is distinct from (n.team_id, n.date, n.currency, n.category_slug, n.recurring, n.amount, n.tax_amount, n.tax_rate, n.status, n.internal)';
  delta text;
begin
  if tg_op = 'INSERT' then
    delta := format('select %s, 1 as sign from new_rows', cols);
  elsif tg_op = 'DELETE' then
    delta := format('select %s, -1 as sign from old_rows o where exists (select 1 from teams t where t.id = o.team_id)', cols);
  else
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
alter table transactions drop column splits;
`);
}

/**
 * `transaction_totals_apply` as this migration defines it: the rows each statement changed, each as
 * what reports count (the whole, or each split part with its share of the tax), handed as `%s` to
 * `write`; `after` runs once the write has. 0108 writes the same rows elsewhere.
 */
export function totalsApplyFunction(write: string, after = ''): string {
  return `create or replace function transaction_totals_apply() returns trigger language plpgsql as $$
declare
  cols constant text := 'team_id, date, currency, category_slug, recurring, amount, tax_amount, tax_rate, status, internal, splits';
  changed constant text := '(o.team_id, o.date, o.currency, o.category_slug, o.recurring, o.amount, o.tax_amount, o.tax_rate, o.status, o.internal, o.splits)
    is distinct from (n.team_id, n.date, n.currency, n.category_slug, n.recurring, n.amount, n.tax_amount, n.tax_rate, n.status, n.internal, n.splits)';
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
  -- Each row as what reports count: the whole, or each of its parts with its share of the tax.
  delta := format($p$
    select w.team_id, w.date, w.currency, w.recurring, w.status, w.internal, w.sign, p.category_slug, p.amount, p.tax
      from (%s) w
      cross join lateral (
        select w.category_slug, w.amount, transaction_tax(w.amount, w.tax_amount, w.tax_rate) as tax where w.splits is null
        union all
        select s ->> 'categorySlug', (s ->> 'amount')::numeric,
               transaction_tax((s ->> 'amount')::numeric, w.tax_amount * (s ->> 'amount')::numeric / w.amount, w.tax_rate)
          from jsonb_array_elements(w.splits) s
      ) p(category_slug, amount, tax)
  $p$, delta);
  execute format($q$
${write}  $q$, delta);
${after}  return null;
end $$;
`;
}

/** The deltas of a statement's rows (`%s`), summed by team, day, currency, category and recurring. */
export const TOTALS_ROWS = `      (team_id, date, currency, category_slug, recurring, income, expenses, income_tax, expense_tax, income_count, expense_count)
    select d.team_id, d.date, d.currency, coalesce(d.category_slug, ''), d.recurring,
           coalesce(sum(d.sign * d.amount) filter (where d.amount > 0), 0),
           coalesce(sum(-d.sign * d.amount) filter (where d.amount < 0), 0),
           coalesce(sum(d.sign * d.tax) filter (where d.amount > 0), 0),
           coalesce(sum(d.sign * d.tax) filter (where d.amount < 0), 0),
           coalesce(sum(d.sign) filter (where d.amount > 0), 0),
           coalesce(sum(d.sign) filter (where d.amount < 0), 0)
      from (%s) d
     where d.status in ('posted', 'completed') and not d.internal
     group by 1, 2, 3, 4, 5
`;

/** What this migration's function does with them: adds them to the totals, in one order for every writer. */
export const TOTALS_WRITE = `    insert into transaction_daily_totals as t
${TOTALS_ROWS}     -- One order for every writer, so two syncs of the same team cannot deadlock on their totals.
     order by 1, 2, 3, 4, 5
    on conflict (team_id, date, currency, category_slug, recurring) do update set
      income = t.income + excluded.income,
      expenses = t.expenses + excluded.expenses,
      income_tax = t.income_tax + excluded.income_tax,
      expense_tax = t.expense_tax + excluded.expense_tax,
      income_count = t.income_count + excluded.income_count,
      expense_count = t.expense_count + excluded.expense_count
`;
