import type { Db } from '../../db/knex';
import type { TemporalGateway } from '../../temporal/client';
import { startReEncrypt } from '../../temporal/re-encrypt/calls';
import type { SealedColumnName } from '../../temporal/re-encrypt/contract';
import type { Assert, SameType } from '../common/same-type';
import { decrypt, encrypt, keyringOf, sealedWithCurrent, type Keyring } from './encryption';

/** Every column that holds a sealed value, by the name ReEncrypt reports it under. */
export const SEALED_COLUMNS = {
  'bank-connections': { table: 'bank_connections', column: 'access_token_encrypted' },
  'webhook-endpoints': { table: 'webhook_endpoints', column: 'secret_encrypted' },
} as const;
export type SealedColumn = keyof typeof SEALED_COLUMNS;
export const SEALED_COLUMN_NAMES = Object.keys(SEALED_COLUMNS) as SealedColumn[];
// The workflow's contract names the same columns.
type _ColumnsAgree = Assert<SameType<SealedColumn, SealedColumnName>>;

export interface ReEncryptBatch {
  /** Where the next batch starts (ids are walked in order); null when the column is done. */
  nextAfter: string | null;
  /** Values sealed again under the current key. */
  rewritten: number;
  /** Values no configured key opens: left as they are, and counted so an operator keeps the key that does. */
  unreadable: number;
}

/**
 * Seals one batch of a column's values again under the current key, walking the rows by id across
 * every team. Each row is written only if its value is still the one read (a secret rotated
 * meanwhile keeps its new value), and a value already under the current key is skipped, so a batch
 * that runs twice (its worker died) writes nothing twice.
 */
export async function reEncryptBatch(
  db: Db,
  ring: Keyring,
  input: { column: SealedColumn; after: string | null; limit: number },
): Promise<ReEncryptBatch> {
  const { table, column } = SEALED_COLUMNS[input.column];
  const { rows } = await db.raw<{ rows: { id: string; sealed: string }[] }>(
    `select id, ?? as sealed from ?? where ?? is not null and id > coalesce(?::uuid, '00000000-0000-0000-0000-000000000000') order by id limit ?`,
    [column, table, column, input.after, input.limit],
  );
  const ids: string[] = [];
  const before: string[] = [];
  const after: string[] = [];
  let unreadable = 0;
  for (const row of rows) {
    if (sealedWithCurrent(row.sealed, ring)) continue;
    let plain: string;
    try {
      plain = decrypt(row.sealed, ring);
    } catch {
      unreadable++;
      continue;
    }
    ids.push(row.id);
    before.push(row.sealed);
    after.push(encrypt(plain, ring));
  }
  let rewritten = 0;
  if (ids.length) {
    const result = await db.raw<{ rowCount: number }>(
      `update ?? t set ?? = v.sealed
         from unnest(?::uuid[], ?::text[], ?::text[]) as v(id, was, sealed)
        where t.id = v.id and t.?? = v.was`,
      [table, column, ids, before, after, column],
    );
    rewritten = result.rowCount;
  }
  return { nextAfter: rows.length < input.limit ? null : rows[rows.length - 1].id, rewritten, unreadable };
}

/** Every column walked to its end in this process, batch after batch: what ReEncrypt does, without a worker. */
export async function reEncryptAll(
  db: Db,
  ring: Keyring,
  limit: number,
): Promise<Record<SealedColumn, { rewritten: number; unreadable: number }>> {
  const out = {} as Record<SealedColumn, { rewritten: number; unreadable: number }>;
  for (const column of SEALED_COLUMN_NAMES) {
    const done = (out[column] = { rewritten: 0, unreadable: 0 });
    let after: string | null = null;
    do {
      const batch: ReEncryptBatch = await reEncryptBatch(db, ring, { column, after, limit });
      done.rewritten += batch.rewritten;
      done.unreadable += batch.unreadable;
      after = batch.nextAfter;
    } while (after);
  }
  return out;
}

/** How many values each column still holds under a key other than the current one. */
export async function countNotUnderCurrentKey(db: Db, ring: Keyring): Promise<Record<SealedColumn, number>> {
  const counts = {} as Record<SealedColumn, number>;
  for (const name of SEALED_COLUMN_NAMES) {
    const { table, column } = SEALED_COLUMNS[name];
    const [{ count }] = await db(table)
      .whereNotNull(column)
      .whereRaw('?? not like ?', [column, `v2:${ring.current.id}:%`])
      .count<{ count: string }[]>({ count: '*' });
    counts[name] = Number(count);
  }
  return counts;
}

/**
 * With retired keys configured, starts the run that seals every value under the current key (once
 * per key: every worker asks, one run does it). Returns its workflow id, or null with none retired.
 */
export async function reEncryptUnderCurrentKey(
  temporal: TemporalGateway,
  config: { ENCRYPTION_KEY: string; ENCRYPTION_KEYS_RETIRED: readonly string[] },
): Promise<string | null> {
  if (!config.ENCRYPTION_KEYS_RETIRED.length) return null;
  const keyId = keyringOf(config).current.id;
  return startReEncrypt(temporal, { keyId, columns: SEALED_COLUMN_NAMES }, config.ENCRYPTION_KEYS_RETIRED.length);
}
