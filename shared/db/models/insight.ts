import { TeamScopedModel } from './base';
import type { RecurringFrequency } from './recurring-payment';

/** A week of the team's money (insightSummarySchema describes each figure). Amounts in `currency`, rounded to its minor unit. */
export interface InsightSummary {
  currency: string | null;
  income: number;
  spending: number;
  profit: number;
  previousWeek: { income: number; spending: number };
  largestChanges: { slug: string | null; name: string; amount: number; weeklyAverage: number; change: number }[];
  uncategorisedTransactions: number;
  receiptsWaiting: number;
  overdueInvoices: { count: number; totals: { currency: string; amount: number }[] };
  runway: { balance: number; monthlyBurn: number; runwayMonths: number | null };
  unconvertedTransactions: number;
  /** Absent from summaries computed before recurring payments were detected. */
  recurringPayments?: { new: RecurringMention[]; changed: RecurringMention[]; missing: RecurringMention[] };
}

/** A recurring payment as a weekly summary names it. */
export interface RecurringMention {
  id: string;
  counterparty: string;
  frequency: RecurringFrequency;
  currency: string;
  expectedAmount: number;
  nextExpectedDate: string;
  lastPaymentDate: string;
  lastAmount: number;
  previousAmount: number;
}

export class Insight extends TeamScopedModel {
  static override tableName = 'insights';
  static override jsonAttributes = ['summary'];
  periodType!: 'weekly';
  periodStart!: string;
  periodEnd!: string;
  currency!: string | null;
  summary!: InsightSummary;
  announcedAt!: Date | null;
  updatedAt!: Date;
}
