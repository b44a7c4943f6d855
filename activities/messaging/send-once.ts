import { Context } from '@temporalio/activity';
import type { Db } from '../../shared/db/knex';

/**
 * Sends a message to a person at most once per activity, across Temporal's retries. A chat API
 * takes no idempotency key, and an attempt can send and then lose its completion (the worker dies,
 * or the server is too busy to record it): the retry would message the person again. The send is
 * recorded right after it succeeds, and a retry that finds the record does nothing. What remains is
 * a crash in the moment between the two, which no API without idempotency keys can close.
 */
export async function sendOnce(db: Db, send: () => Promise<unknown>): Promise<'sent' | 'skipped'> {
  const { workflowExecution, activityId } = Context.current().info;
  // An activity started on its own (no workflow) has no retries of a workflow to guard against.
  if (!workflowExecution) {
    await send();
    return 'sent';
  }
  const activityKey = `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
  if (await db('sent_messages').where({ activityKey }).first()) return 'skipped';
  await send();
  await db('sent_messages').insert({ activityKey }).onConflict('activityKey').ignore();
  return 'sent';
}
