/** What processing decides a document is; receipts and supplier invoices go on to matching. */
export const DOCUMENT_KINDS = ['receipt', 'invoice', 'contract', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * The kinds that the receipt matching takes: an uploaded one lands in the inbox as an emailed one does.
 * An invoice the team issued itself is not taken (DocumentProcessing asks issuedByTeam).
 */
export const MATCHABLE_KINDS: readonly DocumentKind[] = ['receipt', 'invoice'];
