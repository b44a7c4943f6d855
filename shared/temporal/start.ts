import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  type ScheduleOptionsAction,
} from '@temporalio/client';
import { TypedSearchAttributes, type SearchAttributePair, type SignalDefinition, type Workflow } from '@temporalio/common';
import type { TemporalGateway } from './client';
import type { WorkflowContract } from './contract';

export interface StartRequest<W extends Workflow> {
  /** A business key (see each contract's id function): the same operation finds the same run. */
  workflowId: string;
  args: Parameters<W>;
  searchAttributes?: SearchAttributePair[];
  /**
   * One line the Temporal UI lists the run by (`Invoice INV-0042 · Kunde GmbH · €690.20 · due 12 Dec 2026`):
   * required, so no start leaves an operator to open the run to learn what it is about.
   */
  summary: string;
  /** More about the run, in markdown, shown when it is opened. */
  details?: string;
}

/** A schedule's action is a start too: each run it starts is listed by this summary. */
export type ScheduledStart = ScheduleOptionsAction & { staticSummary: string };

const typed = (pairs: SearchAttributePair[] | undefined) => (pairs ? new TypedSearchAttributes(pairs) : undefined);

/**
 * Starts the run for this business key once. An id that already ran or runs is success: a
 * redelivered webhook or a retried request must not do the work twice. Returns the workflow id.
 */
export async function startOnce<W extends Workflow>(
  temporal: TemporalGateway,
  contract: WorkflowContract<W>,
  req: StartRequest<W>,
): Promise<string> {
  const client = await temporal.client();
  try {
    // StartRequest<W> has checked the arguments; the SDK's own check cannot resolve for a generic W.
    await client.workflow.start<Workflow>(contract.workflowType, {
      taskQueue: temporal.options.taskQueue,
      workflowId: req.workflowId,
      args: req.args,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: typed(req.searchAttributes),
      staticSummary: req.summary,
      staticDetails: req.details,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return req.workflowId;
}

/**
 * Signals the run with this id, starting it first when none runs: requests that arrive while a
 * run is busy coalesce into it. Returns the workflow id.
 */
export async function signalWithStart<W extends Workflow, A extends unknown[]>(
  temporal: TemporalGateway,
  contract: WorkflowContract<W>,
  req: StartRequest<W> & { signal: SignalDefinition<A>; signalArgs: A },
): Promise<string> {
  const client = await temporal.client();
  // As in startOnce: the request's types are checked here, the SDK call is made untyped.
  await client.workflow.signalWithStart<Workflow, unknown[]>(contract.workflowType, {
    taskQueue: temporal.options.taskQueue,
    workflowId: req.workflowId,
    args: req.args,
    signal: req.signal,
    signalArgs: req.signalArgs,
    typedSearchAttributes: typed(req.searchAttributes),
    // Kept from the first start: a signal to a running run leaves its summary as it was.
    staticSummary: req.summary,
    staticDetails: req.details,
  });
  return req.workflowId;
}

/**
 * Signals the run only while it runs: true when it took the signal, false when it has ended or
 * never existed, so the caller can do the work itself.
 */
export async function signalIfRunning<A extends unknown[]>(
  temporal: TemporalGateway,
  workflowId: string,
  signal: SignalDefinition<A>,
  ...args: A
): Promise<boolean> {
  const handle = (await temporal.client()).workflow.getHandle(workflowId);
  const running = await handle.describe().then(
    (d) => d.status.name === 'RUNNING',
    () => false,
  );
  if (!running) return false;
  try {
    await handle.signal(signal, ...args);
    return true;
  } catch (err) {
    // It ended between the describe and the signal: the same as not running.
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
