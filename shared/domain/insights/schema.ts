import { z } from 'zod';
import type { InsightSummary as SummaryColumn } from '../../db/models';
import { isoDate, pageSize } from '../common/query';
import type { Assert, SameType } from '../common/same-type';
import { recurringMentionSchema } from '../recurring-payments/schema';

const money = z.number().meta({ description: "In the summary's currency, rounded to its minor unit (cents for EUR, whole yen for JPY)." });

const categoryChange = z.object({
  slug: z.string().nullable().meta({ description: 'null: uncategorised.' }),
  name: z.string(),
  amount: money.meta({ description: 'Spent in the week.' }),
  weeklyAverage: money.meta({ description: 'Average weekly spend over the four weeks before.' }),
  change: money.meta({ description: 'amount − weeklyAverage: positive is more spending than usual.' }),
});

export const insightSummarySchema = z
  .object({
    currency: z.string().nullable(),
    income: money,
    spending: money,
    profit: money,
    previousWeek: z.object({ income: money, spending: money }),
    largestChanges: z
      .array(categoryChange)
      .meta({ description: 'Up to five categories whose spending moved most against the four weeks before, largest first.' }),
    uncategorisedTransactions: z.number().int().meta({ description: 'Transactions of the week without a category.' }),
    receiptsWaiting: z.number().int().meta({ description: 'Inbox items still waiting for a transaction or a decision.' }),
    overdueInvoices: z.object({
      count: z.number().int(),
      totals: z.array(z.object({ currency: z.string(), amount: money })).meta({ description: 'Per invoice currency.' }),
    }),
    runway: z.object({
      balance: money,
      monthlyBurn: money.meta({ description: 'Average over the three full months before the week.' }),
      runwayMonths: z.number().nullable(),
    }),
    unconvertedTransactions: z.number().int().meta({ description: 'Transactions of the week left out for want of an exchange rate.' }),
    recurringPayments: z
      .object({
        new: z.array(recurringMentionSchema).meta({ description: 'Found in the week: the payment that made them a series fell in it.' }),
        changed: z.array(recurringMentionSchema).meta({
          description:
            'Their payment in the week moved the amount by more than `RECURRING_AMOUNT_CHANGE_SHARE` (10 % by default) of the usual amount (`previousAmount`).',
        }),
        missing: z.array(recurringMentionSchema).meta({
          description: "Their expected date and its grace period had passed by the week's end without a payment (not yet ended).",
        }),
      })
      .optional()
      .meta({
        description:
          'Recurring payments (`GET /recurring-payments`) worth a word. Absent from summaries computed before they were detected.',
      }),
  })
  .meta({ id: 'InsightSummary' });
export type InsightSummary = z.infer<typeof insightSummarySchema>;
// The insights.summary column is typed in the model on its own: the API's shape is what is stored.
type _SummaryIsTheColumn = Assert<SameType<InsightSummary, SummaryColumn>>;

export const insightSchema = z
  .object({
    id: z.uuid(),
    periodType: z.enum(['weekly']),
    periodStart: z.string().meta({ description: 'Monday of the week, in the team’s time zone.' }),
    periodEnd: z.string().meta({ description: 'Sunday of the week.' }),
    summary: insightSummarySchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().meta({ description: 'When it was last computed.' }),
  })
  .meta({ id: 'Insight', description: "A week of the team's money in one summary." });
export type InsightDto = z.infer<typeof insightSchema>;

export const listInsightsQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
});
export type ListInsightsQuery = z.infer<typeof listInsightsQuery>;

export const generateInsightBody = z
  .object({
    weekStart: isoDate
      .refine((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 1, 'a Monday')
      .optional()
      .meta({ description: "The Monday of the week to summarise. Default: the last complete week in the team's time zone." }),
  })
  .strict()
  .meta({ id: 'GenerateInsight' });

export const insightIdParams = z.object({ id: z.uuid() });
