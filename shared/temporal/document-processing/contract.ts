import { defineQuery } from '@temporalio/workflow';
import type { DocumentKind } from '../../domain/documents/kinds';
import { workflowContract } from '../contract';

export interface DocumentProcessingInput {
  documentId: string;
  teamId: string;
  /** How long a receipt's match suggestion waits for a decision, in ms (as for emailed receipts). */
  decisionTimeoutMs: number;
}

export type DocumentProcessingStage = 'extracting' | 'classifying' | 'matching' | 'completed' | 'failed';

export interface DocumentProcessingProgress {
  stage: DocumentProcessingStage;
  kind: DocumentKind | null;
  /** The ReceiptIngestion run a receipt or invoice was handed to. */
  receiptWorkflowId: string | null;
}

/** What reading the file gave: its text (empty when there is none) or why it could not be read. */
export type ExtractedDocument = { readable: true; chars: number } | { readable: false; reason: string };

export const documentProcessingProgress = defineQuery<DocumentProcessingProgress>('documentProcessingProgress');

export type DocumentProcessingWorkflow = (input: DocumentProcessingInput) => Promise<DocumentProcessingProgress>;

export const documentProcessingContract = workflowContract<DocumentProcessingWorkflow>('documentProcessing');

/** One run per document: an upload retried finds the run its first attempt started. */
export const documentProcessingId = (documentId: string) => `document:${documentId}`;
