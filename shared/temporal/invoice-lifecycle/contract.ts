import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface InvoiceLifecycleInput {
  teamId: string;
  invoiceId: string;
}

/** What the run does next: each is one status change or one email, decided from the database. */
export type InvoiceNextAction = 'send' | 'email' | 'mark-overdue' | 'remind' | 'recheck' | 'email-credit-note';

/** Where the invoice's life is: waiting to go out, out and waiting for payment, overdue, or ended. */
export type InvoiceLifecycleStage = 'starting' | 'scheduled' | 'sending' | 'awaiting_payment' | 'overdue' | 'ended';

/** One step the database says is due, or waits for (`at` in the future). */
export interface InvoiceStepPlan {
  stage: InvoiceLifecycleStage;
  /** The invoice's status when the plan was made; on `ended`, how it ended (`deleted` when it went). */
  status: string;
  action: InvoiceNextAction | null;
  /** ISO 8601; null with no action. */
  at: string | null;
  /** remind: which reminder of the team's cadence (1 = the first). */
  reminder?: number;
}

export interface InvoiceLifecycleProgress {
  stage: InvoiceLifecycleStage;
  status: string;
  nextAction: InvoiceNextAction | null;
  nextActionAt: string | null;
  emailsSent: number;
}

export type InvoiceLifecycleResult = InvoiceLifecycleProgress;

/**
 * The invoice changed (scheduled again, unscheduled, paid, canceled, a payment recorded): the run
 * reads it again. Carries nothing: the database is the truth, so a lost signal costs time, not
 * correctness (every step re-checks the status under a lock before it acts).
 */
export const invoiceChanged = defineSignal('invoiceChanged');
export const invoiceLifecycleProgress = defineQuery<InvoiceLifecycleProgress>('invoiceLifecycleProgress');

export type InvoiceLifecycleWorkflow = (input: InvoiceLifecycleInput) => Promise<InvoiceLifecycleResult>;

export const invoiceLifecycleContract = workflowContract<InvoiceLifecycleWorkflow>('invoiceLifecycle');

/** One run per invoice at a time; an invoice issued again after it was unscheduled gets a new run under the same id. */
export const invoiceLifecycleId = (invoiceId: string) => `invoice:${invoiceId}`;
