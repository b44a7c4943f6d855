import { z } from 'zod';

/**
 * Query-string helpers. A filter accepts one value or a repeated key (`?status=a&status=b`) and
 * comma-separated values; booleans accept `true`/`false`. The same schemas serve tRPC, where
 * inputs are already typed, so each helper also accepts the typed form.
 */
export function multi<T extends z.ZodTypeAny>(item: T) {
  return z.preprocess((v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const arr = Array.isArray(v) ? v : [v];
    return arr.flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter(Boolean) : [x]));
  }, z.array(item).min(1).optional());
}

export const queryBoolean = z.preprocess((v) => {
  if (v === 'true') return true;
  if (v === 'false') return false;
  return v;
}, z.boolean().optional());

export const pageSize = z.coerce.number().int().min(1).max(500).default(50);

export const isoDate = z.iso.date();

/** An ILIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
