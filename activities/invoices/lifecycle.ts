import { planInvoiceStep, performInvoiceStep, type StepOutcome } from '../../shared/domain/invoices/lifecycle';
import { matchInvoicePayments, type MatchOutcome } from '../../shared/domain/invoice-payment-suggestions/matching';
import type { InvoiceNextAction, InvoiceStepPlan } from '../../shared/temporal/invoice-lifecycle/contract';
import type { ActivityDeps } from '../deps';

export function invoiceLifecycleActivities({ db, mailer, config, temporal, storage }: ActivityDeps) {
  return {
    /** What the invoice needs next and when, read from the database (the run keeps no copy of the invoice). */
    async planInvoiceStep({ teamId, invoiceId }: { teamId: string; invoiceId: string }): Promise<InvoiceStepPlan> {
      return planInvoiceStep(db, teamId, invoiceId);
    },

    /** One status change or one email, checked again under a lock first; safe to repeat. */
    async performInvoiceStep(step: {
      teamId: string;
      invoiceId: string;
      action: InvoiceNextAction;
      reminder?: number;
    }): Promise<StepOutcome> {
      return performInvoiceStep({ db, mailer, config, storage }, step);
    },

    /** After a bank sync: new incoming transactions that pay open invoices (recorded when certain, else suggested). */
    async matchInvoicePayments({ teamId }: { teamId: string }): Promise<MatchOutcome> {
      return matchInvoicePayments(db, temporal, teamId);
    },
  };
}

export type InvoiceLifecycleActivities = ReturnType<typeof invoiceLifecycleActivities>;
