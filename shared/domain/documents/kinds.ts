import type { DOCUMENT_KINDS } from '../../db/models';
import type { DocumentKind as ProcessingKind } from '../../temporal/document-processing/contract';
import type { Assert, SameType } from '../common/same-type';

/** What processing decides a document is (the documents.kind column). */
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

// DocumentProcessing's contract states the kinds on its own, for the workflow's sandbox: a kind added
// to the column and not to the contract (or the other way) fails here.
type _ProcessingCarriesTheColumnKinds = Assert<SameType<DocumentKind, ProcessingKind>>;
