import type { TemporalGateway } from '../client';
import { DocumentId, Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import {
  documentProcessingContract,
  documentProcessingId,
  documentProcessingProgress,
  type DocumentProcessingInput,
  type DocumentProcessingProgress,
} from './contract';

/** The document by its file name. */
const summaryOf = (about: { name: string }) => summaryLine('Document', about.name);

/** Starts processing an uploaded document once; returns the workflow id. */
export function startDocumentProcessing(
  temporal: TemporalGateway,
  input: DocumentProcessingInput,
  about: { name: string },
): Promise<string> {
  return startOnce(temporal, documentProcessingContract, {
    workflowId: documentProcessingId(input.documentId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: DocumentId, value: input.documentId },
      { key: Stage, value: 'extracting' },
    ],
    summary: summaryOf(about),
  });
}

export async function queryDocumentProcessing(temporal: TemporalGateway, documentId: string): Promise<DocumentProcessingProgress> {
  return (await temporal.client()).workflow.getHandle(documentProcessingId(documentId)).query(documentProcessingProgress);
}
