import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';
import { TOTALS_ROWS, TOTALS_WRITE, totalsApplyFunction } from './0098_transaction_splits';

/**
 * Report totals (migration 0059) are added at the commit, not at the statement that changes the
 * transactions. Adding them at the statement locks the totals row of the team's day, currency and
 * category until the commit: every other writer of that row, which is every writer of the team
 * on the same day with the same category (today's manual entries, the syncs of its connections),
 * waits for all that the first transaction still does before it commits, one at a time.
 *
 * So the statement-level triggers on `transactions` now only write their grouped deltas to
 * `transaction_totals_pending` (a plain insert, which locks nothing another writer needs) and mark
 * the transaction in `transaction_totals_folds`; the mark's deferred constraint trigger, which runs
 * once per transaction as it commits, folds that transaction's deltas into `transaction_daily_totals`
 * in one ordered upsert and deletes them. The totals row is then locked only for the commit itself.
 * A reader never sees the deltas: they are folded in the transaction that wrote them.
 */

/** The statement-level trigger of 0098, writing its rows' deltas to `transaction_totals_pending` and marking the transaction. */
const PENDING_APPLY = totalsApplyFunction(
  `    insert into transaction_totals_pending
${TOTALS_ROWS}`,
  `  insert into transaction_totals_folds (xid) values (pg_current_xact_id()) on conflict do nothing;
`,
);

const ON_CONFLICT = `on conflict (team_id, date, currency, category_slug, recurring) do update set
      income = t.income + excluded.income,
      expenses = t.expenses + excluded.expenses,
      income_tax = t.income_tax + excluded.income_tax,
      expense_tax = t.expense_tax + excluded.expense_tax,
      income_count = t.income_count + excluded.income_count,
      expense_count = t.expense_count + excluded.expense_count`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table transaction_totals_pending (
  xid xid8 not null default pg_current_xact_id(),
  team_id uuid not null,
  date date not null,
  currency char(3) not null,
  category_slug text not null,
  recurring boolean not null,
  income numeric(19,4) not null,
  expenses numeric(19,4) not null,
  income_tax numeric(19,4) not null,
  expense_tax numeric(19,4) not null,
  income_count integer not null,
  expense_count integer not null
);
create index transaction_totals_pending_xid_idx on transaction_totals_pending (xid);

create table transaction_totals_folds (xid xid8 primary key);

-- The owner's, so that it folds every delta of the transaction whatever team wall the session is behind
-- (each was checked against the wall when it was written).
create function transaction_totals_fold() returns trigger language plpgsql security definer set search_path from current as $$
begin
  with moved as (delete from transaction_totals_pending where xid = pg_current_xact_id() returning *)
  insert into transaction_daily_totals as t
    (team_id, date, currency, category_slug, recurring, income, expenses, income_tax, expense_tax, income_count, expense_count)
  select team_id, date, currency, category_slug, recurring,
         sum(income), sum(expenses), sum(income_tax), sum(expense_tax), sum(income_count), sum(expense_count)
    from moved m
   -- A team deleted in this transaction took its totals with it.
   where exists (select 1 from teams where id = m.team_id)
   group by 1, 2, 3, 4, 5
   -- One order for every committer, so two transactions of the same team cannot deadlock on their totals.
   order by 1, 2, 3, 4, 5
  ${ON_CONFLICT};
  delete from transaction_totals_folds where xid = pg_current_xact_id();
  return null;
end $$;

create constraint trigger transaction_totals_fold after insert on transaction_totals_folds
  deferrable initially deferred for each row execute function transaction_totals_fold();
${PENDING_APPLY}
`);
  await enableTeamWall(knex, 'transaction_totals_pending');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(totalsApplyFunction(TOTALS_WRITE));
  await disableTeamWall(knex, 'transaction_totals_pending');
  await knex.raw(`
drop table transaction_totals_folds;
drop function transaction_totals_fold();
drop table transaction_totals_pending;
`);
}
