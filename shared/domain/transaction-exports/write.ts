import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/knex';
import type { ExportFormat } from '../../db/models';
import { withinTeam } from '../../db/team-wall';
import { StorageNotFoundError, type Storage } from '../../providers/storage';
import type { TransactionDto, TransactionFilterBody } from '../transactions/schema';
import { listTransactions } from '../transactions/service';
import { exportRowsOf } from './rows';
import { EXPORT_COLUMNS, receiptPath } from './columns';
import { csvHeader, csvLine } from './csv';
import { openZip, type ZipFile } from './zip';
import { openDatevExport } from '../datev/export-file';

/** Rows per keyset page: what one export holds in memory at a time, whatever its size. */
export const EXPORT_BATCH_SIZE = 1000;

export interface ExportRequest {
  teamId: string;
  filters: TransactionFilterBody;
  formats: readonly ExportFormat[];
  /** Stamped on every entry of the ZIP and on the workbook, so writing the same rows again gives the same bytes. */
  createdAt: Date;
}

type ExportCounts = Pick<WrittenZip, 'rowsWritten' | 'receiptsWritten' | 'receiptsMissing'>;

export interface WrittenZip {
  path: string;
  size: number;
  sha256: string;
  rowsWritten: number;
  receiptsWritten: number;
  receiptsMissing: number;
}

/**
 * The filtered transactions, newest first, one keyset page at a time: the list's own query (the same
 * filters, the same order, the (team_id, date, id) index), read inside the team's wall.
 */
async function* transactionPages(db: Db, teamId: string, filters: TransactionFilterBody): AsyncGenerator<TransactionDto[]> {
  let cursor: string | undefined;
  do {
    const page = await withinTeam(teamId, () => listTransactions(db, teamId, { ...filters, pageSize: EXPORT_BATCH_SIZE, cursor }));
    if (page.data.length) yield page.data;
    cursor = page.meta.cursor ?? undefined;
  } while (cursor);
}

/** Writes to a file stream, waiting while its buffer is full. */
async function write(out: WriteStream, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

const utcDate = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`);

/**
 * Streams the filtered rows into transactions.csv and transactions.xlsx on disk and the attached
 * files into the ZIP as each page goes by, then adds the two tables and closes the ZIP in `dir`. Only
 * one page of rows and one attachment are in memory at a time. `hooks.page` hears the rows written
 * after each page, `hooks.alive` is called as each file goes in (a long page of large receipts).
 */
export async function writeExportZip(
  deps: { db: Db; storage: Storage },
  req: ExportRequest,
  dir: string,
  hooks: { page(rowsWritten: number): Promise<void>; alive(): void },
): Promise<WrittenZip> {
  const zipPath = path.join(dir, 'export.zip');
  const zip = await openZip(zipPath, req.createdAt);
  let counts: ExportCounts;
  try {
    counts = await writeEntries(deps, req, dir, zip, hooks);
    await zip.close();
  } catch (err) {
    zip.abort();
    throw err;
  }
  const hash = createHash('sha256');
  await pipeline(createReadStream(zipPath), hash);
  return { path: zipPath, size: (await stat(zipPath)).size, sha256: hash.digest('hex'), ...counts };
}

async function writeEntries(
  deps: { db: Db; storage: Storage },
  req: ExportRequest,
  dir: string,
  zip: ZipFile,
  hooks: { page(rowsWritten: number): Promise<void>; alive(): void },
): Promise<ExportCounts> {
  const addEntry = async (source: Readable, name: string) => {
    await zip.add(source, name);
    hooks.alive();
  };
  const wants = new Set(req.formats);
  const csvPath = path.join(dir, 'transactions.csv');
  const xlsxPath = path.join(dir, 'transactions.xlsx');
  const csv = wants.has('csv') ? createWriteStream(csvPath) : null;
  // A BOM, so spreadsheet programs read the file as UTF-8.
  if (csv) await write(csv, `\uFEFF${csvHeader(EXPORT_COLUMNS.map((c) => c.header))}`);
  // Loaded when a spreadsheet is asked for: it is large, and every process that never writes one would pay to load it.
  const workbook = wants.has('xlsx')
    ? new (await import('exceljs')).default.stream.xlsx.WorkbookWriter({ filename: xlsxPath, useStyles: true })
    : null;
  const datev = wants.has('datev') ? await openDatevExport(deps.db, req, dir) : null;
  const sheet = workbook?.addWorksheet('Transactions', { views: [{ state: 'frozen', ySplit: 1 }] });
  if (workbook && sheet) {
    workbook.created = req.createdAt;
    workbook.modified = req.createdAt;
    sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : {} }));
    sheet.getRow(1).font = { bold: true };
  }

  let rowsWritten = 0;
  let receiptsWritten = 0;
  let receiptsMissing = 0;
  for await (const page of transactionPages(deps.db, req.teamId, req.filters)) {
    const keys = wants.has('receipts') ? await storageKeysOf(deps.db, req.teamId, page) : new Map<string, string>();
    for (const t of page) {
      const paths: string[] = [];
      for (const a of t.attachments) {
        const inZip = receiptPath(t, a);
        const key = keys.get(a.id);
        if (!wants.has('receipts')) {
          paths.push(a.name);
          continue;
        }
        const file = key ? await deps.storage.open(key).catch(missingAsNull) : null;
        if (!file) {
          receiptsMissing++;
          paths.push(`${a.name} (file no longer stored)`);
          continue;
        }
        await addEntry(file.stream, inZip);
        receiptsWritten++;
        paths.push(inZip);
      }
      // A split transaction is a row (and a booking) per part; its receipts went into the ZIP once, above.
      for (const part of exportRowsOf(t)) {
        const cells = EXPORT_COLUMNS.map((c) => c.cell(part, paths));
        if (csv) await write(csv, csvLine(cells));
        const row = sheet?.addRow(
          cells.map((cell) => (cell === null ? null : 'number' in cell ? cell.number : 'date' in cell ? utcDate(cell.date) : cell.text)),
        );
        if (row) {
          cells.forEach((cell, i) => {
            if (cell && 'numFmt' in cell && cell.numFmt) row.getCell(i + 1).numFmt = cell.numFmt;
          });
          row.commit();
        }
        await datev?.add(part);
        rowsWritten++;
      }
    }
    await hooks.page(rowsWritten);
  }

  if (csv) {
    csv.end();
    await once(csv, 'finish');
    await addEntry(createReadStream(csvPath), 'transactions.csv');
  }
  if (workbook && sheet) {
    sheet.commit();
    await workbook.commit();
    await addEntry(createReadStream(xlsxPath), 'transactions.xlsx');
  }
  for (const file of (await datev?.finish()) ?? []) await addEntry(createReadStream(file.path), file.name);
  return { rowsWritten, receiptsWritten, receiptsMissing };
}

function missingAsNull(err: unknown): null {
  if (err instanceof StorageNotFoundError) return null;
  throw err;
}

/** Where the page's attachments are stored, by attachment id (the list row carries no storage keys). */
async function storageKeysOf(db: Db, teamId: string, page: TransactionDto[]): Promise<Map<string, string>> {
  const ids = page.flatMap((t) => t.attachments.map((a) => a.id));
  if (!ids.length) return new Map();
  const rows = await withinTeam(teamId, () =>
    db('transaction_attachments')
      .where({ teamId })
      .whereRaw('id = any(?::uuid[])', [ids])
      .select<{ id: string; storageKey: string }[]>('id', 'storageKey'),
  );
  return new Map(rows.map((r) => [r.id, r.storageKey]));
}
