import { condition, continueAsNew, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { InvoiceLifecycleActivities } from '../activities/invoices/lifecycle';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  invoiceChanged,
  invoiceLifecycleProgress,
  type InvoiceLifecycleProgress,
  type InvoiceLifecycleWorkflow,
} from '../shared/temporal/invoice-lifecycle/contract';

const { planInvoiceStep, performInvoiceStep } = proxyActivities<InvoiceLifecycleActivities>({
  startToCloseTimeout: '1m',
  // A mail server or database down for hours must not lose a send or a reminder: keep trying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/** Each wait is a few events; a run that has waited on an open invoice for years starts afresh rather than grow without end. */
const HISTORY_LIMIT = 2_000;

/**
 * InvoiceLifecycle (id `invoice:<invoiceId>`), from the moment an invoice leaves draft: waits for a
 * scheduled send → issues it and emails it with its PDF and link → waits for the due date → marks it
 * overdue (the team is told) → reminds on the team's cadence → ends when it is paid, canceled,
 * refunded or back in draft. The run holds no copy of the invoice: each turn asks the database
 * what is next and when, sleeps until then on one durable timer, and wakes early on `invoiceChanged`
 * to ask again. Every status change goes through the state machine in the activity, which checks
 * again under a lock that the step is still due.
 */
export const invoiceLifecycle: InvoiceLifecycleWorkflow = async (input) => {
  const progress: InvoiceLifecycleProgress = { stage: 'starting', status: 'unknown', nextAction: null, nextActionAt: null, emailsSent: 0 };
  // Set by the signal handler; read through a function so the check is not narrowed away between awaits.
  const woken = { changed: false };
  const signalled = () => woken.changed;
  setHandler(invoiceLifecycleProgress, () => progress);
  setHandler(invoiceChanged, () => void (woken.changed = true));

  for (;;) {
    woken.changed = false;
    const plan = await planInvoiceStep(input);
    if (plan.stage !== progress.stage) upsertSearchAttributes([{ key: Stage, value: plan.stage }]);
    Object.assign(progress, { stage: plan.stage, status: plan.status, nextAction: plan.action, nextActionAt: plan.at });
    if (plan.stage === 'ended' || !plan.action) {
      // Issued again while this plan was read (unscheduled, then sent): the signal that started no new run is for this one.
      if (signalled()) continue;
      return progress;
    }

    // Workflow time is replayed deterministically, so sleeping until an instant is safe.
    const wait = plan.at ? Date.parse(plan.at) - Date.now() : 0;
    if (wait > 0 && (await condition(() => woken.changed, wait))) continue;
    if (plan.action !== 'recheck') {
      const outcome = await performInvoiceStep({ ...input, action: plan.action, reminder: plan.reminder });
      if (outcome === 'sent') progress.emailsSent += 1;
      // Done; what comes next is decided by the next plan.
      Object.assign(progress, { nextAction: null, nextActionAt: null });
    }
    if (workflowInfo().historyLength > HISTORY_LIMIT) await continueAsNew<InvoiceLifecycleWorkflow>(input);
  }
};
