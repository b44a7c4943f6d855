import type { TemporalGateway } from '../client';
import { TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { chatReplyId, sendChatMessageContract, type ChatMessageInput } from './contract';

/**
 * Answers an incoming chat message (sent with retries by the worker), once per message; returns the
 * workflow id. `teamId` is the team the sender's number is connected to, null for a number that is
 * connected to none (the welcome): the run carries it as TeamId.
 */
export function startChatReply(
  temporal: TemporalGateway,
  answering: { incomingMessageId: string; teamId: string | null },
  message: ChatMessageInput,
): Promise<string> {
  return startOnce(temporal, sendChatMessageContract, {
    workflowId: chatReplyId(answering.incomingMessageId),
    args: [message],
    searchAttributes: answering.teamId ? [{ key: TeamId, value: answering.teamId }] : undefined,
  });
}
