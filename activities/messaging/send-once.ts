import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../../shared/db/knex';

/** Longer than a send can take (the chat client gives up after 45 s): a claim this old belongs to a dead attempt. */
const CLAIM_LEASE_SECONDS = 120;

/**
 * Sends a message to a person at most once per activity, across Temporal's retries. A chat API takes
 * no idempotency key, and two things would message the person twice: an attempt that sent and lost
 * its completion (the worker died, the server was too busy to record it), and an attempt Temporal
 * timed out that is still sending when its retry starts. So the send is claimed first and recorded
 * after: a retry finds it sent and does nothing, or finds it being sent and tries again later. What
 * remains is a crash between the send and its record, which no API without idempotency keys can close.
 */
export async function sendOnce(db: Db, send: () => Promise<unknown>): Promise<'sent' | 'skipped'> {
  const { workflowExecution, activityId } = Context.current().info;
  // An activity started on its own (no workflow) has no retries of a workflow to guard against.
  if (!workflowExecution) {
    await send();
    return 'sent';
  }
  const activityKey = `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `insert into sent_messages (activity_key, claimed_at) values (?, now())
     on conflict (activity_key) do update set claimed_at = now()
      where sent_messages.sent_at is null and sent_messages.claimed_at < now() - make_interval(secs => ?)
     returning 1`,
    [activityKey, CLAIM_LEASE_SECONDS],
  );
  if (!rows.length) {
    const row = await db('sent_messages').where({ activityKey }).first<{ sentAt: Date | null } | undefined>('sentAt');
    if (row?.sentAt) return 'skipped';
    // Still retryable: when that attempt finishes, the next try finds the message sent.
    throw ApplicationFailure.retryable('an earlier attempt of this activity is sending the message', 'SendInProgress');
  }
  try {
    await send();
  } catch (err) {
    // Not sent: the next attempt may send at once.
    await db('sent_messages').where({ activityKey }).whereNull('sentAt').delete();
    throw err;
  }
  await db('sent_messages').where({ activityKey }).update({ sentAt: db.fn.now() });
  return 'sent';
}
