import { deliverSeriesInvoice, issueSeriesInvoice } from '../../shared/domain/invoice-series/service';
import { removeInvoiceSeriesSchedule } from '../../shared/temporal/invoice-series/calls';
import type { SeriesIssue } from '../../shared/temporal/invoice-series/contract';
import type { ActivityDeps } from '../deps';

export function invoiceSeriesActivities({ db, temporal }: ActivityDeps) {
  return {
    /** The period's invoice from the series' template, made once (a retry finds it). */
    async issueSeriesInvoice(input: { teamId: string; seriesId: string; period: string }): Promise<SeriesIssue> {
      return issueSeriesInvoice(db, input);
    },

    /** Sends it (or only issues it) through the invoice state machine, which starts its InvoiceLifecycle. */
    async deliverSeriesInvoice(input: { teamId: string; seriesId: string; invoiceId: string }): Promise<string> {
      return deliverSeriesInvoice(db, temporal, input);
    },

    /** The series issued its last invoice: its schedule goes. */
    async endInvoiceSeries(input: { teamId: string; seriesId: string }): Promise<boolean> {
      return removeInvoiceSeriesSchedule(temporal, input.seriesId);
    },
  };
}

export type InvoiceSeriesActivities = ReturnType<typeof invoiceSeriesActivities>;
