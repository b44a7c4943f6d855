import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';
import { summaryLine } from '../summary';

/** A received file, as the ingestReceipt activity stores it. */
export interface IngestInput {
  teamId: string;
  source: 'messaging' | 'email' | 'upload';
  /** The source message id: unique per team, and part of the workflow id. */
  reference: string;
  /** Chat media to download; or, for email attachments, the storage key the gateway stored it under. */
  mediaId?: string;
  storedKey?: string;
  mimeType: string;
  fileName?: string;
  /** What the sender wrote with the file (a chat caption). */
  caption?: string;
  sender?: string;
  workflowId?: string;
}

export interface ReceiptIngestionInput extends IngestInput {
  phoneNumber?: string;
  /** The chat message to react to with the processing emoji. */
  messageId?: string;
  /** How long a suggestion waits for confirm or decline, in ms. */
  decisionTimeoutMs: number;
}

export type ReceiptStage =
  'uploading' | 'extracting' | 'matching' | 'awaiting_decision' | 'confirmed' | 'declined' | 'expired' | 'auto_matched' | 'no_match';

export type Decision = 'confirm' | 'decline' | 'expire';
export type DecisionVia = 'chat' | 'api' | 'timeout' | 'auto';
export type DecisionOutcome = 'confirmed' | 'declined' | 'expired' | 'already_handled' | 'not_found';

export interface ButtonReply {
  action: 'confirm' | 'decline';
  transactionId: string;
  via: 'chat' | 'api';
}

export interface ReceiptProgress {
  stage: ReceiptStage;
  inboxItemId: string | null;
  transactionId: string | null;
}

export interface ReceiptIngestionResult {
  stage: ReceiptStage;
  inboxItemId: string;
  transactionId?: string;
  outcome?: DecisionOutcome;
  workflowId?: string;
}

/** A confirm or decline, from a chat button or the API; the run applies the one for its suggestion. */
export const buttonReply = defineSignal<[ButtonReply]>('buttonReply');
export const stageQuery = defineQuery<ReceiptProgress>('stage');

export type ReceiptIngestionWorkflow = (input: ReceiptIngestionInput) => Promise<ReceiptIngestionResult>;

export const receiptIngestionContract = workflowContract<ReceiptIngestionWorkflow>('receiptIngestion');

/** One run per received file: a redelivered message or mail finds the run it started. */
export const receiptIngestionId = (teamId: string, sourceMessageId: string) => `receipt:${teamId}:${sourceMessageId}`;

const SOURCES: Record<IngestInput['source'], string> = { messaging: 'from chat', email: 'by email', upload: 'uploaded' };

/**
 * What a run is listed by: `Receipt · by email · taxi.pdf`. Here rather than in calls.ts because
 * DocumentProcessing starts these runs too, as children, and a workflow reads only contracts. The
 * sender (a phone number, an address) stays out.
 */
export const receiptIngestionSummary = (input: IngestInput) =>
  summaryLine('Receipt', SOURCES[input.source], input.fileName ?? input.mimeType);

/** What the sender is told in chat; the workflow and a decision made after it ended say the same. */
export const receiptReplies = {
  noMatch: 'Receipt saved to your inbox. No matching transaction yet: it will be matched when the transaction arrives.',
  noMatchUnreadable:
    'Receipt saved to your inbox, but its total could not be read. Add the amount there and it will be matched when its transaction arrives.',
  autoMatched: 'Receipt matched to its transaction automatically.',
} as const;

const decisionReplies: Record<DecisionOutcome, string> = {
  confirmed: 'Match confirmed: the receipt is attached to the transaction.',
  declined: 'Match declined: the receipt stays in your inbox.',
  expired: 'The suggestion expired: the receipt stays in your inbox.',
  already_handled: 'This suggestion was already handled.',
  not_found: 'This suggestion was already handled.',
};

export const decisionReply = (outcome: DecisionOutcome): string => decisionReplies[outcome];
