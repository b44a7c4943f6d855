import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface RecurringInvoiceInput {
  teamId: string;
  seriesId: string;
}

export type RecurringInvoiceStage = 'issuing' | 'delivering' | 'completed';

export interface RecurringInvoiceProgress {
  stage: RecurringInvoiceStage;
  /** The scheduled moment this run issues for (ISO 8601). */
  period: string;
  invoiceId: string | null;
  /** Why nothing was issued: the series is paused, ended or gone. */
  skipped: string | null;
  /** This invoice was the series' last (its count or end date reached): the schedule was removed. */
  ended: boolean;
}

/** What issuing found: the invoice for this period (new, or made by an earlier attempt), or why there is none. */
export interface SeriesIssue {
  invoiceId: string | null;
  skipped: string | null;
  last: boolean;
}

export const recurringInvoiceProgress = defineQuery<RecurringInvoiceProgress>('recurringInvoiceProgress');

export type RecurringInvoiceWorkflow = (input: RecurringInvoiceInput) => Promise<RecurringInvoiceProgress>;

export const recurringInvoiceContract = workflowContract<RecurringInvoiceWorkflow>('recurringInvoice');

/** The series' schedule; its runs get this id with the scheduled time appended. */
export const invoiceSeriesScheduleId = (seriesId: string) => `invoice-series:${seriesId}`;
