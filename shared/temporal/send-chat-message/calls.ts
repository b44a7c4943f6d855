import type { TemporalGateway } from '../client';
import { startOnce } from '../start';
import { chatReplyId, sendChatMessageContract, type ChatMessageInput } from './contract';

/** Answers an incoming chat message (sent with retries by the worker); returns the workflow id. */
export function startChatReply(temporal: TemporalGateway, incomingMessageId: string, message: ChatMessageInput): Promise<string> {
  return startOnce(temporal, sendChatMessageContract, { workflowId: chatReplyId(incomingMessageId), args: [message] });
}
