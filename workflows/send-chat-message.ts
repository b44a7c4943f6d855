import { proxyActivities } from '@temporalio/workflow';
import type { ReceiptActivities } from '../activities/receipts/ingest';
import type { SendChatMessageWorkflow } from '../shared/temporal/send-chat-message/contract';

const { sendMessage } = proxyActivities<ReceiptActivities>({
  // Longer than the chat client's own 45 s limit, so a slow provider is waited for rather than asked again.
  startToCloseTimeout: '1m',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 20 },
});

/** A chat reply, sent with retries outside the webhook handler (id `chat-reply:<incoming message id>`). */
export const sendChatMessage: SendChatMessageWorkflow = async (input) => {
  await sendMessage(input);
};
