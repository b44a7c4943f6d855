import { condition, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { ReceiptActivities } from '../activities/receipts/ingest';
import { InboxId, Stage } from '../shared/temporal/search-attribute-keys';
import {
  buttonReply,
  decisionReply,
  receiptReplies,
  stageQuery,
  type ButtonReply,
  type ReceiptIngestionWorkflow,
  type ReceiptStage,
} from '../shared/temporal/receipt-ingestion/contract';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '2m', maximumAttempts: 10 };
const { ingestReceipt, matchReceipt, decideMatch } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '2m', retry });
// Photos from a burst queue for the worker's one OCR engine: waiting there is not a stuck attempt.
const { extractReceipt } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '10m', retry });
// Chat calls are quick: a worker lost mid-send is noticed in 30 s, not 2 minutes.
// Longer than the chat client's 45 s limit: a slow provider is waited for rather than asked again.
const { sendMessage, sendReaction, sendMatchSuggestion } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '1m', retry });
const acts = { ingestReceipt, extractReceipt, matchReceipt, decideMatch, sendMessage, sendReaction, sendMatchSuggestion };

/**
 * ReceiptIngestion (id `receipt:<teamId>:<source message id>`): upload → extract → match → notify →
 * await the `buttonReply` signal (or time out) → confirm or decline → confirmation message.
 */
export const receiptIngestion: ReceiptIngestionWorkflow = async (input) => {
  let stage: ReceiptStage = 'uploading';
  let inboxItemId: string | null = null;
  let transactionId: string | null = null;
  const replies: ButtonReply[] = [];
  const setStage = (s: ReceiptStage) => {
    stage = s;
    upsertSearchAttributes([{ key: Stage, value: s }]);
  };
  setHandler(stageQuery, () => ({ stage, inboxItemId, transactionId }));
  // Kept even when it arrives a moment before the workflow reaches the await (the user can be quick).
  setHandler(buttonReply, (r) => {
    replies.push(r);
  });
  const tell = async (text: string) => {
    if (input.phoneNumber) await acts.sendMessage({ to: input.phoneNumber, text });
  };

  setStage('uploading');
  if (input.phoneNumber && input.messageId) await acts.sendReaction({ to: input.phoneNumber, messageId: input.messageId, emoji: '⏳' });
  const ingested = await acts.ingestReceipt(input);
  inboxItemId = ingested.inboxItemId;
  upsertSearchAttributes([{ key: InboxId, value: inboxItemId }]);

  setStage('extracting');
  const fields = await acts.extractReceipt({ inboxItemId });

  setStage('matching');
  const match = await acts.matchReceipt({ teamId: input.teamId, inboxItemId });
  if (match.outcome === 'no_match') {
    setStage('no_match');
    await tell(fields.amount === null ? receiptReplies.noMatchUnreadable : receiptReplies.noMatch);
    return { stage, inboxItemId };
  }
  transactionId = match.transactionId;
  if (match.outcome === 'auto_matched') {
    setStage('auto_matched');
    await tell(receiptReplies.autoMatched);
    return { stage, inboxItemId, transactionId };
  }

  setStage('awaiting_decision');
  if (input.phoneNumber) {
    await acts.sendMatchSuggestion({
      to: input.phoneNumber,
      inboxItemId,
      transactionId,
      receiptName: fields.merchant,
      amount: match.amount,
      currency: match.currency,
      date: match.date,
      name: match.name,
    });
  }
  const forThis = () => replies.find((x) => x.transactionId === transactionId) ?? null;
  const decided = await condition(() => forThis() !== null, input.decisionTimeoutMs);
  const r = forThis();
  const decision = decided && r ? r.action : 'expire';
  const outcome = await acts.decideMatch({
    teamId: input.teamId,
    inboxItemId,
    transactionId,
    decision,
    via: decided && r ? r.via : 'timeout',
  });
  setStage(decision === 'confirm' ? 'confirmed' : decision === 'decline' ? 'declined' : 'expired');
  await tell(decisionReply(outcome));
  return { stage, inboxItemId, transactionId, outcome, workflowId: workflowInfo().workflowId };
};
