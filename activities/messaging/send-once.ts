import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { Db } from '../../shared/db/knex';
import { claimSend, markSent, releaseSendClaim, wasSent } from '../../shared/domain/messaging/sent-messages';
import { certainlyNotDelivered } from '../../shared/providers/not-delivered';

/**
 * How long a claim holds off other attempts. Longer than a send can take (the chat client gives up
 * after 45 s) plus the time spent recording it (below): a claim this old belongs to an attempt that
 * died, or to a send whose fate nobody can know.
 */
const CLAIM_LEASE_SECONDS = 120;

/** Recording a send that went out is tried this often (about 15 s of waiting in all) before it is given up. */
const RECORD_TRIES = 6;

/**
 * Sends a message to a person at most once per activity, across Temporal's retries. A chat API takes
 * no idempotency key, and three things would message the person twice: an attempt that sent and lost
 * its completion (the worker died, the server was too busy to record it), an attempt Temporal timed
 * out that is still sending when its retry starts, and a send that failed in a way that does not say
 * whether the provider got it (a timeout, a reset connection).
 *
 * So the send is claimed first and recorded after: a retry finds it sent and does nothing, or finds it
 * claimed and tries again later. A claim is released at once only when the provider certainly did not
 * take the message; otherwise it holds until its lease ends. What remains is an attempt that dies
 * between the send and its record, which no API without idempotency keys can close.
 */
export async function sendOnce(db: Db, send: () => Promise<unknown>): Promise<'sent' | 'skipped'> {
  const { workflowExecution, activityId } = Context.current().info;
  // An activity started on its own (no workflow) has no retries of a workflow to guard against.
  if (!workflowExecution) {
    await send();
    return 'sent';
  }
  const activityKey = `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
  if (!(await claimSend(db, activityKey, CLAIM_LEASE_SECONDS))) {
    if (await wasSent(db, activityKey)) return 'skipped';
    // Still retryable: when that attempt finishes, the next try finds the message sent.
    throw ApplicationFailure.retryable('an earlier attempt of this activity is sending the message', 'SendInProgress');
  }
  try {
    await send();
  } catch (err) {
    // Certainly not sent: the next attempt may send at once. Otherwise the claim stands until its lease ends.
    if (certainlyNotDelivered(err)) await releaseSendClaim(db, activityKey);
    throw err;
  }
  await recordSent(db, activityKey);
  return 'sent';
}

/**
 * The message is out: failing the activity now would only lead a retry, once the lease ends, to send
 * it again. So a busy database is waited for, and if the record still cannot be written the
 * activity succeeds anyway; the claim then guards every retry for the length of its lease.
 */
async function recordSent(db: Db, activityKey: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await markSent(db, activityKey);
      return;
    } catch (err) {
      if (attempt >= RECORD_TRIES) {
        log.error('a message went out but its record could not be written', { activityKey, err });
        return;
      }
      await new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
    }
  }
}
