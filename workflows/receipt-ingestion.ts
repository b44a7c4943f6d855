import { condition, defineQuery, defineSignal, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { IngestInput, ReceiptActivities } from '../activities/receipts/ingest';

export interface ReceiptIngestionInput extends IngestInput {
  phoneNumber?: string;
  /** The chat message to react to with the processing emoji. */
  messageId?: string;
  /** How long a suggestion waits for confirm or decline, in ms. */
  decisionTimeoutMs: number;
}

export type ReceiptStage = 'uploading' | 'extracting' | 'matching' | 'awaiting_decision' | 'confirmed' | 'declined' | 'expired' | 'auto_matched' | 'no_match';

export interface ButtonReply {
  action: 'confirm' | 'decline';
  transactionId: string;
  via: 'chat' | 'api';
}

export const buttonReply = defineSignal<[ButtonReply]>('buttonReply');
export const stageQuery = defineQuery<{ stage: ReceiptStage; inboxItemId: string | null; transactionId: string | null }>('stage');

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '2m', maximumAttempts: 10 };
const { ingestReceipt, matchReceipt, decideMatch } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '2m', retry });
// Photos from a burst queue for the worker's one OCR engine: waiting there is not a stuck attempt.
const { extractReceipt } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '10m', retry });
// Chat calls are quick: a worker lost mid-send is noticed in 30 s, not 2 minutes.
const { sendMessage, sendReaction, sendMatchSuggestion } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '30s', retry });
const acts = { ingestReceipt, extractReceipt, matchReceipt, decideMatch, sendMessage, sendReaction, sendMatchSuggestion };

/**
 * ReceiptIngestion (id `receipt:<teamId>:<source message id>`): upload → extract → match → notify →
 * await the `buttonReply` signal (or time out) → confirm or decline → confirmation message.
 */
export async function receiptIngestion(input: ReceiptIngestionInput) {
  let stage: ReceiptStage = 'uploading';
  let inboxItemId: string | null = null;
  let transactionId: string | null = null;
  const replies: ButtonReply[] = [];
  const setStage = (s: ReceiptStage) => {
    stage = s;
    upsertSearchAttributes({ Stage: [s] });
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
  upsertSearchAttributes({ InboxId: [inboxItemId] });

  setStage('extracting');
  const fields = await acts.extractReceipt({ inboxItemId });

  setStage('matching');
  const match = await acts.matchReceipt({ teamId: input.teamId, inboxItemId });
  if (match.outcome === 'no_match') {
    setStage('no_match');
    await tell(
      fields.amount === null
        ? 'Receipt saved to your inbox, but its total could not be read. Add the amount there and it will be matched when its transaction arrives.'
        : 'Receipt saved to your inbox. No matching transaction yet: it will be matched when the transaction arrives.',
    );
    return { stage, inboxItemId };
  }
  transactionId = match.transactionId;
  if (match.outcome === 'auto_matched') {
    setStage('auto_matched');
    await tell('Receipt matched to its transaction automatically.');
    return { stage, inboxItemId, transactionId };
  }

  setStage('awaiting_decision');
  if (input.phoneNumber) {
    await acts.sendMatchSuggestion({ to: input.phoneNumber, inboxItemId, transactionId, receiptName: fields.merchant, amount: match.amount, currency: match.currency, date: match.date, name: match.name });
  }
  const forThis = () => replies.find((x) => x.transactionId === transactionId) ?? null;
  const decided = await condition(() => forThis() !== null, input.decisionTimeoutMs);
  const r = forThis();
  const decision = decided && r ? r.action : 'expire';
  const outcome = await acts.decideMatch({ teamId: input.teamId, inboxItemId, transactionId, decision, via: decided && r ? r.via : 'timeout' });
  setStage(decision === 'confirm' ? 'confirmed' : decision === 'decline' ? 'declined' : 'expired');
  const messages: Record<string, string> = {
    confirmed: 'Match confirmed: the receipt is attached to the transaction.',
    declined: 'Match declined: the receipt stays in your inbox.',
    expired: 'The suggestion expired: the receipt stays in your inbox.',
    already_handled: 'This suggestion was already handled.',
  };
  await tell(messages[outcome] ?? messages.already_handled);
  return { stage, inboxItemId, transactionId, outcome, workflowId: workflowInfo().workflowId };
}
