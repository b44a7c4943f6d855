import type { TemporalGateway } from '../client';
import { TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import { chatReplyId, sendChatMessageContract, type ChatMessageInput } from './contract';

/** Why a message is answered; the run is listed by it, never by the number or the text. */
export type ChatReplyReason = 'welcome' | 'connected' | 'taken' | 'how-to' | 'unsupported-file' | 'decision';

const REASONS: Record<ChatReplyReason, string> = {
  welcome: 'welcome to an unconnected number',
  connected: 'number connected to the team',
  taken: 'number connected to another team',
  'how-to': 'how to send receipts',
  'unsupported-file': 'file type not supported',
  decision: 'decision on a suggested match',
};

/**
 * Answers an incoming chat message (sent with retries by the worker), once per message; returns the
 * workflow id. `teamId` is the team the sender's number is connected to, null for a number that is
 * connected to none (the welcome): the run carries it as TeamId.
 */
export function startChatReply(
  temporal: TemporalGateway,
  answering: { incomingMessageId: string; teamId: string | null; reason: ChatReplyReason },
  message: ChatMessageInput,
): Promise<string> {
  return startOnce(temporal, sendChatMessageContract, {
    workflowId: chatReplyId(answering.incomingMessageId),
    args: [message],
    searchAttributes: answering.teamId ? [{ key: TeamId, value: answering.teamId }] : undefined,
    summary: summaryLine('Chat reply', REASONS[answering.reason]),
  });
}
