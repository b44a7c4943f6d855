import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import { BankAccount, TransactionImport } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { badRequest, notFound, workflowServiceUnreachable } from '../../errors';
import type { Storage } from '../../providers/storage';
import type { TemporalGateway } from '../../temporal/client';
import { startImportTransactions } from '../../temporal/import-transactions/calls';
import { importTransactionsId } from '../../temporal/import-transactions/contract';
import { newestFirstPage, type Page } from '../common/cursor';
import { detectDelimiter } from './csv';
import { detectImportFormat, unsupportedStatement } from './formats';
import type { ImportDto, ImportMapping, ListImportsQuery } from './schema';

/** The uploaded statement, spooled to disk by the gateway. */
export interface ImportFile {
  path: string;
  fileName: string;
  size: number;
  head: Buffer;
}

type ImportRow = TransactionImport & { cursorCreatedAt: string };

function toDto(row: TransactionImport): ImportDto {
  return {
    id: row.id,
    bankAccountId: row.bankAccountId,
    format: row.format,
    fileName: row.fileName,
    fileSize: row.fileSize,
    status: row.status,
    progress: { rowsRead: row.rowsRead, created: row.createdCount, skipped: row.skippedCount, matched: row.matchedCount },
    errors: row.errors,
    workflowId: importTransactionsId(row.id),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    completedAt: toIsoOrNull(row.completedAt),
  };
}

/**
 * Records an import of the file into one of the team's accounts, stores the file and starts its
 * ImportTransactions run. The format is read from the content; a CSV needs the client's mapping
 * (the delimiter is detected from the first line when the mapping names none).
 */
export async function startImport(
  deps: { db: Db; storage: Storage; temporal: TemporalGateway },
  who: { teamId: string; userId: string | null },
  file: ImportFile,
  fields: { bankAccountId: string; mapping?: ImportMapping },
): Promise<ImportDto> {
  const { db, storage, temporal } = deps;
  const account = await BankAccount.query(db).findOne({ teamId: who.teamId, id: fields.bankAccountId }).select('id', 'name');
  if (!account) throw notFound(`Bank account ${fields.bankAccountId} not found`);
  const format = detectImportFormat(file.head);
  if (!format) throw unsupportedStatement();
  let mapping: ImportMapping | null = null;
  if (format === 'csv') {
    if (!fields.mapping) {
      throw badRequest('A CSV file needs a column mapping (see POST /transactions/import/preview for a detected one)', [
        { field: 'mapping', message: 'required for CSV' },
      ]);
    }
    mapping = {
      ...fields.mapping,
      delimiter: fields.mapping.delimiter ?? detectDelimiter(file.head.toString('utf8').replace(/^\uFEFF/, '')),
    };
  }

  const id = randomUUID();
  const storageKey = `${who.teamId}/imports/${id}`;
  await storage.putFile(storageKey, file.path, file.size);
  const row = await TransactionImport.query(db).insertAndFetch({
    id,
    teamId: who.teamId,
    bankAccountId: fields.bankAccountId,
    format,
    fileName: file.fileName,
    fileSize: file.size,
    storageKey,
    mapping,
    status: 'pending',
    createdBy: who.userId,
  });
  try {
    await startImportTransactions(temporal, { importId: id, teamId: who.teamId }, { fileName: file.fileName, accountName: account.name });
  } catch (err) {
    // Nothing will run it: the import and its file go, and the client may simply send it again.
    await TransactionImport.query(db).deleteById(id);
    await storage.remove(storageKey).catch(() => undefined);
    throw workflowServiceUnreachable(err);
  }
  return toDto(row);
}

export async function getImport(db: Db, teamId: string, id: string): Promise<ImportDto> {
  const row = await TransactionImport.query(db).findOne({ teamId, id });
  if (!row) throw notFound(`Import ${id} not found`);
  return toDto(row);
}

export function listImports(db: Db, teamId: string, query: ListImportsQuery): Promise<Page<ImportDto>> {
  const q = db('imports as i').where('i.team_id', teamId).select<ImportRow[]>('i.*', db.raw('i.created_at::text as cursor_created_at'));
  if (query.status) q.where('i.status', query.status);
  return newestFirstPage(q, 'i', query, toDto);
}
