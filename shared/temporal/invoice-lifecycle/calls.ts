import { WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalGateway } from '../client';
import { InvoiceId, Stage, TeamId } from '../search-attribute-keys';
import { signalIfRunning, signalWithStart } from '../start';
import { day, money, summaryLine } from '../summary';
import {
  invoiceChanged,
  invoiceLifecycleContract,
  invoiceLifecycleId,
  invoiceLifecycleProgress,
  type InvoiceLifecycleInput,
  type InvoiceLifecycleProgress,
} from './contract';

/** What an invoice's run is listed by. */
export interface InvoiceAbout {
  /** Null while it is scheduled: it is numbered when it is issued. */
  invoiceNumber: string | null;
  customerName: string | null;
  amount: number;
  currency: string;
  dueDate: string | null;
}

/** `Invoice INV-0042 · Kunde GmbH · €690.20 · due 12 Dec 2026` */
const summaryOf = (about: InvoiceAbout) =>
  summaryLine(
    about.invoiceNumber ? `Invoice ${about.invoiceNumber}` : 'Scheduled invoice',
    about.customerName,
    money(about.amount, about.currency),
    about.dueDate ? `due ${day(about.dueDate)}` : null,
  );

/**
 * The invoice left draft or changed while live: its run reads it again, and is started when none
 * runs (an invoice unscheduled back to draft and issued again gets a new run under the same id).
 */
export function keepInvoiceLifecycle(temporal: TemporalGateway, input: InvoiceLifecycleInput, about: InvoiceAbout): Promise<string> {
  return signalWithStart(temporal, invoiceLifecycleContract, {
    workflowId: invoiceLifecycleId(input.invoiceId),
    args: [input],
    signal: invoiceChanged,
    signalArgs: [],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: InvoiceId, value: input.invoiceId },
      { key: Stage, value: 'starting' },
    ],
    summary: summaryOf(about),
  });
}

/** The invoice ended (paid, canceled, refunded, back to draft): its run, if one waits, reads it and ends. */
export function signalInvoiceChanged(temporal: TemporalGateway, invoiceId: string): Promise<boolean> {
  return signalIfRunning(temporal, invoiceLifecycleId(invoiceId), invoiceChanged);
}

/**
 * What the run waits for and when it acts next; null when no run is open for the invoice. Both calls
 * end by `timeoutMs` (a query waits for a worker to answer), so a reader is never held up for long.
 */
export async function queryInvoiceLifecycle(
  temporal: TemporalGateway,
  invoiceId: string,
  timeoutMs: number,
): Promise<InvoiceLifecycleProgress | null> {
  const client = await temporal.client();
  const handle = client.workflow.getHandle(invoiceLifecycleId(invoiceId));
  return client.connection.withDeadline(Date.now() + timeoutMs, async () => {
    try {
      const { status } = await handle.describe();
      if (status.name !== 'RUNNING') return null;
      return await handle.query(invoiceLifecycleProgress);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    }
  });
}
