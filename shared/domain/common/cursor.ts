import type { Knex } from 'knex';
import { badRequest } from '../../errors';
import { isUuid } from './uuid';
import { isoDate } from './query';
import type { Page } from './page';

export type { Page } from './page';

/**
 * Opaque keyset cursors: the sort key of the last row, base64url-encoded JSON. Clients must treat
 * them as opaque; we only promise that passing one back returns the rows after it.
 */
export function encodeCursor(key: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** What each part of a cursor must be, so that a cursor we never issued is a 400, not a failed cast. */
export type CursorPart = 'date' | 'timestamp' | 'uuid' | 'integer' | 'number' | 'text';

const isDate = (v: string) => isoDate.safeParse(v).success;

const PARTS: Record<CursorPart, (v: string) => boolean> = {
  date: isDate,
  // As PostgreSQL prints a timestamptz (`created_at::text`): '2026-11-26 06:55:47.123456+00'.
  timestamp: (v) => /^ ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-]\d{2}(:[0-5]\d)?$/.test(v.slice(10)) && isDate(v.slice(0, 10)),
  uuid: isUuid,
  // A non-negative bigint in decimal (a sequence, a transaction id): at most 19 digits, no leading zero.
  integer: (v) => /^(0|[1-9]\d{0,18})$/.test(v) && BigInt(v) <= 9223372036854775807n,
  // As PostgreSQL prints a numeric (`amount::text`), exact where a JS number would round.
  number: (v) => /^-?\d{1,15}(\.\d{1,4})?$/.test(v),
  // Any text a column holds, but no NUL, which PostgreSQL refuses in a text parameter.
  text: (v) => v.length <= 1000 && !v.includes('\u0000'),
};

/**
 * A part of a cursor's key: its kind, and whether the column may be null (a null sorts after every
 * value, as PostgreSQL sorts it).
 */
export type CursorShape = CursorPart | { part: CursorPart; nullable: true };

/** The key a cursor holds, unchecked; undefined for text that is no cursor at all. */
export function readCursor(cursor: string): unknown[] | undefined {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `key` holds exactly one value of each part of `shape`. */
export function fitsShape(key: readonly unknown[], shape: readonly CursorShape[]): boolean {
  return (
    key.length === shape.length &&
    key.every((value: unknown, i) => {
      const s = shape[i];
      if (value === null) return typeof s === 'object';
      return typeof value === 'string' && PARTS[typeof s === 'object' ? s.part : s](value);
    })
  );
}

/** A 400 naming `field`, the input field the cursor came in. */
export const invalidCursor = (field = 'cursor') =>
  badRequest('Invalid cursor: pass back the meta.cursor of a previous page unchanged', [
    { field, message: 'not a cursor this API issued' },
  ]);

/** The cursor's parts, or a 400 naming `field` (the input field the cursor came in). */
export function decodeCursor(cursor: string, shape: readonly CursorPart[], field = 'cursor'): string[] {
  const key = readCursor(cursor);
  if (key && fitsShape(key, shape)) return key as string[];
  throw invalidCursor(field);
}

/** The columns a newest-first list reads besides its own: the row's id and its sort key. */
export interface CursorRow {
  id: string;
  /** `<alias>.created_at::text`: full microsecond precision, which a JS Date would round. */
  cursorCreatedAt: string;
}

/**
 * The newest-first list every resource uses: ordered by (created_at, id) of `alias`, resumed from
 * an opaque cursor. The select must include `<alias>.created_at::text as cursor_created_at` (full
 * microsecond precision; a JS Date would round it and skip rows).
 */
export async function newestFirstPage<Row extends CursorRow, T, TRecord extends object = object>(
  q: Knex.QueryBuilder<TRecord, Row[]>,
  alias: string,
  query: { cursor?: string; pageSize: number },
  toDto: (row: Row) => T,
): Promise<Page<T>> {
  q.orderBy([
    { column: `${alias}.created_at`, order: 'desc' },
    { column: `${alias}.id`, order: 'desc' },
  ]).limit(query.pageSize + 1);
  if (query.cursor) {
    const [createdAt, id] = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    q.whereRaw(`(${alias}.created_at, ${alias}.id) < (?::timestamptz, ?::uuid)`, [createdAt, id]);
  }
  // Knex resolves its result type through conditional types that stay unresolved for a type
  // parameter; for any concrete row type the builder resolves to `Row[]`.
  const rows = (await q) as Row[];
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    data: page.map(toDto),
    meta: { cursor: hasNextPage && last ? encodeCursor([last.cursorCreatedAt, last.id]) : null, hasNextPage },
  };
}
