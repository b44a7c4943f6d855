import type { Db } from '../../db/knex';
import { InboxItem } from '../../db/models';
import type { TemporalGateway } from '../../temporal/client';
import type { ButtonReply, DecisionOutcome } from '../../temporal/receipt-ingestion/contract';
import { sendButtonReply } from '../../temporal/receipt-ingestion/calls';
import { decideSuggestion } from './decide';

export interface DecisionDeps {
  db: Db;
  temporal: TemporalGateway;
}

export interface SubmittedDecision {
  /** `signalled`: the waiting workflow applies it and sends the confirmation itself. */
  outcome: DecisionOutcome | 'signalled';
  /** The item's ReceiptIngestion run, when it has one. */
  workflowId: string | null;
}

/**
 * A confirm or decline from a chat button or the API, one path for both: while the item's
 * ReceiptIngestion run waits, the decision goes to it as its `buttonReply` signal (the run then
 * applies it and replies in chat); once the run has ended, it is applied here.
 */
export async function submitDecision(
  deps: DecisionDeps,
  input: { teamId: string; inboxItemId: string; transactionId: string } & Pick<ButtonReply, 'action' | 'via'>,
): Promise<SubmittedDecision> {
  const { teamId, inboxItemId, transactionId, action, via } = input;
  const item = await InboxItem.query(deps.db).findOne({ teamId, id: inboxItemId }).whereNot('status', 'deleted');
  if (!item) return { outcome: 'not_found', workflowId: null };
  const { workflowId } = item;
  if (workflowId && (await sendButtonReply(deps.temporal, workflowId, { action, transactionId, via })))
    return { outcome: 'signalled', workflowId };
  return { outcome: await decideSuggestion(deps.db, { teamId, inboxItemId, transactionId, decision: action, via }), workflowId };
}
