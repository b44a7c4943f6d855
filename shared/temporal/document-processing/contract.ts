import { defineQuery } from '@temporalio/workflow';
import { workflowContract } from '../contract';

/** What processing decides a document is (the documents.kind column; shared/domain/documents/kinds.ts checks they agree). */
export type DocumentKind = 'receipt' | 'invoice' | 'contract' | 'other';

/**
 * The kinds that the receipt matching takes: an uploaded one lands in the inbox as an emailed one does.
 * An invoice the team issued itself is not taken (DocumentProcessing asks issuedByTeam).
 */
export const MATCHABLE_KINDS: readonly DocumentKind[] = ['receipt', 'invoice'];

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
