import { proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { InvoiceSeriesActivities } from '../activities/invoices/series';
import { Stage, TemporalScheduledStartTime } from '../shared/temporal/search-attribute-keys';
import {
  recurringInvoiceProgress,
  type RecurringInvoiceProgress,
  type RecurringInvoiceStage,
  type RecurringInvoiceWorkflow,
} from '../shared/temporal/invoice-series/contract';

const { issueSeriesInvoice, deliverSeriesInvoice, endInvoiceSeries } = proxyActivities<InvoiceSeriesActivities>({
  startToCloseTimeout: '1m',
  // A database or mail server down for hours must not lose a period's invoice: keep trying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/**
 * RecurringInvoice: one run per period of a series, started by the series' schedule
 * (`invoice-series:<seriesId>`). Issues the period's invoice from the template (once: the invoice
 * is keyed by the scheduled moment) → sends it, or only issues it, as the series says → removes the
 * schedule when that invoice was the series' last.
 */
export const recurringInvoice: RecurringInvoiceWorkflow = async (input) => {
  const info = workflowInfo();
  // The moment the schedule meant this run for; a run started by hand has none and uses its own start.
  const period = (info.typedSearchAttributes.get(TemporalScheduledStartTime) ?? info.startTime).toISOString();
  const progress: RecurringInvoiceProgress = { stage: 'issuing', period, invoiceId: null, skipped: null, ended: false };
  setHandler(recurringInvoiceProgress, () => progress);
  const setStage = (stage: RecurringInvoiceStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
  };

  const issued = await issueSeriesInvoice({ ...input, period });
  Object.assign(progress, { invoiceId: issued.invoiceId, skipped: issued.skipped });
  if (issued.invoiceId) {
    setStage('delivering');
    await deliverSeriesInvoice({ ...input, invoiceId: issued.invoiceId });
  }
  if (issued.last) {
    await endInvoiceSeries(input);
    progress.ended = true;
  }
  setStage('completed');
  return progress;
};
