import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import { signalIfRunning, startOnce } from '../start';
import {
  buttonReply,
  receiptIngestionContract,
  receiptIngestionId,
  receiptIngestionSummary,
  stageQuery,
  type ButtonReply,
  type ReceiptIngestionInput,
  type ReceiptProgress,
} from './contract';

/**
 * Starts ReceiptIngestion for one received file (chat, email or upload), once per source message.
 * Stage is set from the start so a run is found in the UI before its first step; the run adds
 * InboxId itself once the item exists. Returns the workflow id.
 */
export function startReceiptIngestion(temporal: TemporalGateway, input: Omit<ReceiptIngestionInput, 'workflowId'>): Promise<string> {
  const workflowId = receiptIngestionId(input.teamId, input.reference);
  return startOnce(temporal, receiptIngestionContract, {
    workflowId,
    args: [{ ...input, workflowId }],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: Stage, value: 'uploading' },
    ],
    summary: receiptIngestionSummary(input),
  });
}

/** Hands a decision to the run while it waits; false when the run has ended (the caller decides itself). */
export function sendButtonReply(temporal: TemporalGateway, workflowId: string, reply: ButtonReply): Promise<boolean> {
  return signalIfRunning(temporal, workflowId, buttonReply, reply);
}

export async function queryReceiptStage(temporal: TemporalGateway, workflowId: string): Promise<ReceiptProgress> {
  return (await temporal.client()).workflow.getHandle(workflowId).query(stageQuery);
}
