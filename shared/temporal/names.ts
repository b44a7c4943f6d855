/**
 * Workflow ids are business keys: starting the same business operation twice finds the same
 * workflow instead of running it again.
 */
export const workflowIds = {
  apiKeyNotification: (keyId: string) => `api-key-notification:${keyId}`,
  syncConnection: (connectionId: string) => `sync-connection:${connectionId}`,
  receipt: (teamId: string, sourceMessageId: string) => `receipt:${teamId}:${sourceMessageId}`,
  chatReply: (incomingMessageId: string) => `chat-reply:${incomingMessageId}`,
};

/** Search attributes operators filter on in the Temporal UI (`TeamId = "…"`). */
export const SEARCH_ATTRIBUTES = {
  TeamId: 'KEYWORD',
  ConnectionId: 'KEYWORD',
  InboxId: 'KEYWORD',
  Stage: 'KEYWORD',
} as const;
export type SearchAttributeName = keyof typeof SEARCH_ATTRIBUTES;
