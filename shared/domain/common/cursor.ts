import { badRequest } from '../../errors';

/**
 * Opaque keyset cursors: the sort key of the last row, base64url-encoded JSON. Clients must treat
 * them as opaque; we only promise that passing one back returns the rows after it.
 */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string, arity: number): (string | number)[] {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === arity && key.every((k) => typeof k === 'string' || typeof k === 'number')) {
      return key;
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest('Invalid cursor: pass back the meta.cursor of a previous page unchanged', [
    { field: 'cursor', message: 'not a cursor this API issued' },
  ]);
}

export interface Page<T> {
  data: T[];
  meta: { cursor: string | null; hasNextPage: boolean };
}
