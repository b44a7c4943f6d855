import { z } from 'zod';
import { isoDate } from '../common/query';
import { currencyCode } from '../common/currency';

const period = {
  from: isoDate.meta({ description: 'First day, inclusive.' }),
  to: isoDate.meta({ description: 'Last day, inclusive.' }),
  currency: currencyCode
    .optional()
    .meta({ description: "Only transactions in this currency. Default: the team's base currency, else the most used one." }),
};

export const reportQuery = z
  .object(period)
  .refine((q) => q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] })
  .refine((q) => new Date(q.to).getTime() - new Date(q.from).getTime() <= 5 * 366 * 86_400_000, {
    message: 'at most five years',
    path: ['to'],
  });
export type ReportQuery = z.infer<typeof reportQuery>;

const month = z.object({
  month: z.string().meta({ description: 'YYYY-MM.' }),
  income: z.number(),
  expenses: z.number().meta({ description: 'Positive number: money out.' }),
  profit: z.number(),
});

export const profitAndLossSchema = z
  .object({
    currency: z.string().nullable(),
    from: z.string(),
    to: z.string(),
    income: z.number(),
    expenses: z.number(),
    profit: z.number(),
    months: z.array(month).meta({ description: 'Every month of the period, including empty ones.' }),
  })
  .meta({
    id: 'ProfitAndLoss',
    description:
      'Income, expenses and profit from posted and completed transactions; internal transfers and excluded categories are left out.',
  });

export const spendingSchema = z
  .object({
    currency: z.string().nullable(),
    total: z.number(),
    categories: z.array(
      z.object({
        slug: z.string().nullable().meta({ description: 'null: uncategorised.' }),
        name: z.string(),
        amount: z.number(),
        share: z.number().meta({ description: 'Fraction of total, 0–1.' }),
      }),
    ),
  })
  .meta({ id: 'Spending', description: 'Expenses by category, largest first.' });

export const runwaySchema = z
  .object({
    currency: z.string().nullable(),
    balance: z.number().meta({ description: 'Sum of enabled bank account balances in the currency.' }),
    monthlyBurn: z.number().meta({ description: 'Average net money out per month over the period (0 when profitable).' }),
    runwayMonths: z.number().nullable().meta({ description: 'balance ÷ monthlyBurn; null when not burning money.' }),
  })
  .meta({ id: 'Runway' });
