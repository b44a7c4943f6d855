import { workflowContract } from '../contract';

export interface ChatMessageInput {
  to: string;
  text: string;
}

export type SendChatMessageWorkflow = (input: ChatMessageInput) => Promise<void>;

export const sendChatMessageContract = workflowContract<SendChatMessageWorkflow>('sendChatMessage');

/** Keyed by the message answered, so a redelivered message is answered once. */
export const chatReplyId = (incomingMessageId: string) => `chat-reply:${incomingMessageId}`;
