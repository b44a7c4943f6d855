import { ParentClosePolicy, proxyActivities, setHandler, startChild, upsertSearchAttributes } from '@temporalio/workflow';
import type { DocumentActivities } from '../activities/documents/process';
import {
  documentProcessingProgress,
  MATCHABLE_KINDS,
  type DocumentProcessingProgress,
  type DocumentProcessingStage,
  type DocumentProcessingWorkflow,
} from '../shared/temporal/document-processing/contract';
import {
  receiptIngestionContract,
  receiptIngestionId,
  receiptIngestionSummary,
  type ReceiptIngestionInput,
} from '../shared/temporal/receipt-ingestion/contract';
import { Stage, TeamId } from '../shared/temporal/search-attribute-keys';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '2m', maximumAttempts: 10 };
// OCR of a large scan queues for the worker's one engine: waiting there is not a stuck attempt.
const { extractDocument } = proxyActivities<DocumentActivities>({ startToCloseTimeout: '10m', retry });
const { classifyStoredDocument } = proxyActivities<DocumentActivities>({ startToCloseTimeout: '1m', retry });

/**
 * DocumentProcessing (id `document:<documentId>`): extract the text → classify → for receipts and
 * supplier invoices, hand the file to ReceiptIngestion as an upload, so it lands in the inbox and is
 * matched exactly as an emailed receipt is. That run waits for a decision on its own (the child is
 * abandoned, not awaited): the document is processed when it is read and classified.
 */
export const documentProcessing: DocumentProcessingWorkflow = async (input) => {
  const progress: DocumentProcessingProgress = { stage: 'extracting', kind: null, receiptWorkflowId: null };
  const setStage = (stage: DocumentProcessingStage) => {
    progress.stage = stage;
    upsertSearchAttributes([{ key: Stage, value: stage }]);
  };
  setHandler(documentProcessingProgress, () => progress);
  const ref = { teamId: input.teamId, documentId: input.documentId };

  const read = await extractDocument(ref);
  if (!read.readable) {
    setStage('failed');
    return progress;
  }

  setStage('classifying');
  const doc = await classifyStoredDocument(ref);
  progress.kind = doc.kind;

  // Only a supplier's invoice has money out to match; the team's own is a sale. (Absent in the
  // results of runs recorded before the field existed, which therefore replay as they ran.)
  if (MATCHABLE_KINDS.includes(doc.kind) && !doc.issuedByTeam) {
    setStage('matching');
    const reference = `document:${input.documentId}`;
    const workflowId = receiptIngestionId(input.teamId, reference);
    const receipt: ReceiptIngestionInput = {
      teamId: input.teamId,
      source: 'upload',
      reference,
      storedKey: doc.storageKey,
      mimeType: doc.mimeType,
      fileName: doc.name,
      decisionTimeoutMs: input.decisionTimeoutMs,
      workflowId,
    };
    await startChild(receiptIngestionContract.workflowType, {
      workflowId,
      args: [receipt],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: [
        { key: TeamId, value: input.teamId },
        { key: Stage, value: 'uploading' },
      ],
      staticSummary: receiptIngestionSummary(receipt),
    });
    progress.receiptWorkflowId = workflowId;
  }
  setStage('completed');
  return progress;
};
