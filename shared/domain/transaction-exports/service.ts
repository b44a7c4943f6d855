import type { Db } from '../../db/knex';
import { DatevSettings, EXPORT_FORMATS, type ExportFormat, TransactionExport } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { conflict, notFound, workflowServiceUnreachable } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { startTransactionExport } from '../../temporal/export-transactions/calls';
import { exportTransactionsId } from '../../temporal/export-transactions/contract';
import { notify } from '../notifications/service';
import { newestFirstPage, type Page } from '../common/cursor';
import type { TransactionFilterBody } from '../transactions/schema';
import type { ExportDto, ListExportsQuery, RequestExportBody } from './schema';

/** Where a stored document downloads, absolute when the public address is known. */
export const documentDownloadUrl = (publicUrl: string | undefined, documentId: string) =>
  `${(publicUrl ?? '').replace(/\/$/, '')}/documents/${documentId}/file`;

/** What an export holds when the request names no formats: DATEV's only when asked for, as it needs the team's numbers. */
const DEFAULT_FORMATS: readonly ExportFormat[] = ['csv', 'xlsx', 'receipts'];

/** An export row with its filters in their type. */
export type ExportRow = TransactionExport & { filters: TransactionFilterBody };

/**
 * Every exports row the domain reads comes through here, which gives the jsonb `filters` its type.
 * requestTransactionExport is the column's only writer and writes a body transactionFilterBody
 * accepted, so the value is that type; it is not parsed again, since a schema tightened later would
 * then fail exports it had already accepted.
 */
const readExport = <R extends TransactionExport>(row: R) => row as R & ExportRow;

const toDto = (e: ExportRow, publicUrl: string | undefined): ExportDto => ({
  id: e.id,
  status: e.status,
  filter: e.filters,
  formats: e.formats,
  email: e.email,
  rowsWritten: e.rowsWritten,
  receiptsWritten: e.receiptsWritten,
  receiptsMissing: e.receiptsMissing,
  documentId: e.documentId,
  downloadUrl: e.documentId ? documentDownloadUrl(publicUrl, e.documentId) : null,
  error: e.error,
  notifiedAt: toIsoOrNull(e.notifiedAt),
  emailedAt: toIsoOrNull(e.emailedAt),
  workflowId: exportTransactionsId(e.id),
  createdAt: toIso(e.createdAt),
  completedAt: toIsoOrNull(e.completedAt),
});

/**
 * Records the request and starts its ExportTransactions run. The row is committed first, so the run
 * always finds it; when Temporal cannot be reached the row is removed again and nothing is left behind.
 */
export async function requestTransactionExport(
  deps: { db: Db; temporal: TemporalGateway; publicUrl?: string },
  who: { teamId: string; userId: string },
  body: RequestExportBody,
): Promise<ExportDto> {
  const { db, temporal } = deps;
  const formats = body.formats ?? DEFAULT_FORMATS;
  if (formats.includes('datev')) {
    const settings = await DatevSettings.query(db).findOne({ teamId: who.teamId });
    if (settings?.consultantNumber == null || settings.clientNumber == null)
      throw conflict('A DATEV export needs the consultant and client numbers: set them with PUT /datev/account-mapping');
  }
  const row = await TransactionExport.query(db).insert({
    teamId: who.teamId,
    requestedBy: who.userId,
    status: 'pending',
    filters: body.filter ?? {},
    // In the order the ZIP lists them, whatever order they were asked in.
    formats: EXPORT_FORMATS.filter((f) => formats.includes(f)),
    email: body.email ?? null,
  });
  try {
    await startTransactionExport(
      temporal,
      { exportId: row.id, teamId: who.teamId },
      { formats: row.formats, from: body.filter?.from, to: body.filter?.to },
    );
  } catch (err) {
    await TransactionExport.query(db).deleteById(row.id);
    throw workflowServiceUnreachable(err);
  }
  return getTransactionExport(db, who.teamId, row.id, deps.publicUrl);
}

export async function getTransactionExport(db: Db, teamId: string, id: string, publicUrl?: string): Promise<ExportDto> {
  const row = await TransactionExport.query(db).findOne({ teamId, id });
  if (!row) throw notFound(`Export ${id} not found`);
  return toDto(readExport(row), publicUrl);
}

/** The team's exports, newest first: what an accountant was sent and when. */
export function listTransactionExports(db: Db, teamId: string, query: ListExportsQuery, publicUrl?: string): Promise<Page<ExportDto>> {
  const q = db('exports as e')
    .where('e.team_id', teamId)
    .select<(TransactionExport & { cursorCreatedAt: string })[]>('e.*', db.raw('e.created_at::text as cursor_created_at'));
  if (query.status) q.where('e.status', query.status);
  return newestFirstPage(q, 'e', query, (row) => toDto(readExport(row), publicUrl));
}

// ── The run's steps (activities call these) ────────────────────────────────────────────────────

/** The export as its run reads it; a missing row is the run's own bug or a deleted team, never retried into existence. */
export async function exportForRun(db: Db, teamId: string, exportId: string): Promise<ExportRow | undefined> {
  const row = await TransactionExport.query(db).findOne({ teamId, id: exportId });
  return row && readExport(row);
}

export async function markExportRunning(db: Db, exportId: string): Promise<void> {
  // A retry after a crash starts the count again: the file is written again from the first row.
  await TransactionExport.query(db)
    .findById(exportId)
    .whereNot('status', 'completed')
    .patch({ status: 'running', rowsWritten: 0, receiptsWritten: 0, receiptsMissing: 0, updatedAt: new Date() });
}

export async function recordExportProgress(db: Db, exportId: string, rowsWritten: number): Promise<void> {
  await TransactionExport.query(db).findById(exportId).where('status', 'running').patch({ rowsWritten, updatedAt: new Date() });
}

export async function failExport(db: Db, teamId: string, exportId: string, error: string): Promise<void> {
  await TransactionExport.query(db)
    .findOne({ teamId, id: exportId })
    .whereNot('status', 'completed')
    .patch({ status: 'failed', error, updatedAt: new Date() });
}

/**
 * Tells the requester the export is ready, once however often the step runs: the row is locked while
 * deciding and marked in the same transaction as the notice is written. Returns the notice's id, or
 * null when it was written before (or nobody is left to tell).
 */
export async function announceExport(db: Db, teamId: string, exportId: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const row = await TransactionExport.query(trx).findOne({ teamId, id: exportId }).forUpdate();
    if (!row) throw notFound(`Export ${exportId} not found`);
    if (row.notifiedAt || !row.documentId) return null;
    const notificationId = await notify(trx, {
      teamId,
      userId: row.requestedBy,
      type: 'export_ready',
      metadata: { exportId, documentId: row.documentId, rows: row.rowsWritten, receipts: row.receiptsWritten },
    });
    await TransactionExport.query(trx).findById(exportId).patch({ notifiedAt: new Date() });
    return notificationId;
  });
}

export async function markExportEmailed(db: Db, exportId: string): Promise<void> {
  await TransactionExport.query(db).findById(exportId).patch({ emailedAt: new Date() });
}
