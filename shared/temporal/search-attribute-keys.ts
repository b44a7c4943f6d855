import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Only @temporalio/common here: workflows import these keys inside the sandbox (`upsertSearchAttributes([{ key: Stage, value }])`).

/** The team a run works for: `TeamId = "<team id>"` in the Temporal UI. */
export const TeamId = defineSearchAttributeKey('TeamId', SearchAttributeType.KEYWORD);
export const ConnectionId = defineSearchAttributeKey('ConnectionId', SearchAttributeType.KEYWORD);
export const InboxId = defineSearchAttributeKey('InboxId', SearchAttributeType.KEYWORD);
/** A team invitation's id: `InvitationId = "<id>"`. */
export const InvitationId = defineSearchAttributeKey('InvitationId', SearchAttributeType.KEYWORD);
/** A document's id (DocumentProcessing): `DocumentId = "<id>"`. */
export const DocumentId = defineSearchAttributeKey('DocumentId', SearchAttributeType.KEYWORD);
/** An invoice's id (InvoiceLifecycle): `InvoiceId = "<id>"`. */
export const InvoiceId = defineSearchAttributeKey('InvoiceId', SearchAttributeType.KEYWORD);
/** A transaction export's id (ExportTransactions): `ExportId = "<id>"`. */
export const ExportId = defineSearchAttributeKey('ExportId', SearchAttributeType.KEYWORD);
/** A statement import's id (ImportTransactions): `ImportId = "<id>"`. */
export const ImportId = defineSearchAttributeKey('ImportId', SearchAttributeType.KEYWORD);
/** A webhook endpoint's id (WebhookDelivery): `WebhookEndpointId = "<id>"` lists every delivery run of one endpoint. */
export const WebhookEndpointId = defineSearchAttributeKey('WebhookEndpointId', SearchAttributeType.KEYWORD);
/** Where a run is in its flow (a receipt's `awaiting_decision`), so stuck runs can be listed. */
export const Stage = defineSearchAttributeKey('Stage', SearchAttributeType.KEYWORD);

/** Temporal's own: the time a schedule meant a run to start (the period a recurring invoice is for). */
export const TemporalScheduledStartTime = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/** Every key the server must know; the dev server and ensureSearchAttributes register this list. */
export const searchAttributeKeys = {
  TeamId,
  ConnectionId,
  InboxId,
  Stage,
  InvitationId,
  DocumentId,
  InvoiceId,
  ExportId,
  ImportId,
  WebhookEndpointId,
};
