import type { Db } from '../../db/knex';
import { roundMoney } from '../currencies/money';
import type { Conversion } from './schema';

// Reports read `transaction_daily_totals` (kept by triggers, migration 0059), never the transactions:
// a year of a team with a million transactions is a few thousand rows. Each day's totals in another
// currency are converted at that day's stored rate; a day without one is left out and listed.

export interface TotalsScope {
  teamId: string;
  /** The report currency. */
  currency: string;
  /** The report period; totals are read from `previousFrom` on so the comparison comes in the same query. */
  from: string;
  to: string;
  previousFrom: string;
  /** Cash flow counts categories excluded from profit and loss (taxes paid are still cash out). */
  withExcludedCategories?: boolean;
}

/** One month of one category and recurring flag, converted into the report currency. */
export interface MonthTotal {
  /** In the report period (else in the comparison period). */
  current: boolean;
  month: string;
  categorySlug: string | null;
  categoryName: string | null;
  categoryColor: string | null;
  recurring: boolean;
  income: number;
  expenses: number;
  incomeTax: number;
  expenseTax: number;
}

const UNCONVERTED_LISTED = 100;

// The days and currencies in reach, each with its factor into the report currency (null: no rate),
// and the rows that count for this report. Factors are float8 and computed once per day and currency:
// numeric division of two rates gives twenty-digit factors that make every sum slow, and reports round
// to the currency's minor unit anyway.
const DAYS = `
  with factors as materialized (
    select x.date, x.currency,
           case when x.currency = :currency then cast(1 as float8)
                else cast(eur_rate(:currency, x.date) / eur_rate(x.currency, x.date) as float8) end as factor
      from (select distinct date, currency from transaction_daily_totals
             where team_id = :teamId and date between :previousFrom and :to) x
  ),
  days as (
    select d.*, f.factor, c.name as category_name, c.color as category_color
      from transaction_daily_totals d
      join factors f on f.date = d.date and f.currency = d.currency
      left join transaction_categories c on c.team_id = d.team_id and c.slug = d.category_slug
     where d.team_id = :teamId and d.date between :previousFrom and :to
       and (:withExcluded or c.excluded is not true)
  )`;

interface ConversionRow {
  current: boolean;
  currency: string;
  date: string;
  transactions: number;
  amount: number;
  missing: boolean;
}

/** What one period's transactions in other currencies came to: counted in full, listed up to UNCONVERTED_LISTED days. */
function conversionOf(rows: ConversionRow[]): Conversion {
  const missing = rows.filter((r) => r.missing && r.transactions !== 0);
  const count = (of: ConversionRow[]) => of.reduce((n, r) => n + r.transactions, 0);
  return {
    converted: count(rows.filter((r) => !r.missing)),
    unconvertedTransactions: count(missing),
    unconverted: missing.slice(0, UNCONVERTED_LISTED).map(({ currency, date, transactions, amount }) => ({
      currency: currency.trim(),
      date,
      transactions,
      amount: roundMoney(amount, currency),
    })),
  };
}

export const NO_CONVERSION: Conversion = { converted: 0, unconvertedTransactions: 0, unconverted: [] };

export async function monthlyTotals(
  db: Db,
  scope: TotalsScope,
): Promise<{ rows: MonthTotal[]; conversion: Conversion; previousConversion: Conversion }> {
  const bindings = {
    teamId: scope.teamId,
    currency: scope.currency,
    from: scope.from,
    to: scope.to,
    previousFrom: scope.previousFrom,
    withExcluded: scope.withExcludedCategories ?? false,
  };
  const [totals, conversions] = await Promise.all([
    db.raw<{ rows: MonthTotal[] }>(
      `${DAYS}
       select date >= :from as current, to_char(date, 'YYYY-MM') as month,
              nullif(category_slug, '') as "categorySlug", max(category_name) as "categoryName",
              max(category_color) as "categoryColor", recurring,
              sum(cast(income as float8) * factor) as income, sum(cast(expenses as float8) * factor) as expenses,
              sum(cast(income_tax as float8) * factor) as "incomeTax", sum(cast(expense_tax as float8) * factor) as "expenseTax"
         from days
        where factor is not null
        group by 1, 2, 3, 6`,
      bindings,
    ),
    db.raw<{ rows: ConversionRow[] }>(
      `${DAYS}
       select date >= :from as current, currency, to_char(date, 'YYYY-MM-DD') as date,
              cast(sum(income_count + expense_count) as int) as transactions,
              cast(sum(income - expenses) as float8) as amount, factor is null as missing
         from days
        where currency <> :currency
        group by date, currency, factor is null
        order by date, currency`,
      bindings,
    ),
  ]);
  return {
    rows: totals.rows,
    conversion: conversionOf(conversions.rows.filter((r) => r.current)),
    previousConversion: conversionOf(conversions.rows.filter((r) => !r.current)),
  };
}
