import { z } from 'zod';

/**
 * Query-string helpers. A filter accepts one value or a repeated key (`?status=a&status=b`) and
 * comma-separated values; booleans accept `true`/`false`. The same schemas serve tRPC, where
 * inputs are already typed, so each helper also accepts the typed form.
 */
export function multi<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const arr: unknown[] = Array.isArray(v) ? v : [v];
    return arr.flatMap((x) =>
      typeof x === 'string'
        ? x
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [x],
    );
  }, z.array(item).min(1).optional());
}

export const queryBoolean = z.preprocess((v) => {
  if (v === 'true') return true;
  if (v === 'false') return false;
  return v;
}, z.boolean().optional());

export const pageSize = z.coerce.number().int().min(1).max(500).default(50);

// PostgreSQL stores years 4713 BC to 294276 AD, but ISO 8601 and JavaScript disagree with it below year 1;
// four-digit years are every date a business keeps, and the bound keeps year 0000 from reaching the database.
// Zod still runs this check on a string that failed the format: leave that one to the format's own message.
const inStoredYears = (s: string) => !/^\d{4}-/.test(s) || Number(s.slice(0, 4)) >= 1000;

export const isoDate = z.iso.date().refine(inStoredYears, 'a date between 1000-01-01 and 9999-12-31');

/** An ISO 8601 timestamp with an offset, within the years a date may have. */
export const isoTimestamp = z.iso.datetime({ offset: true }).refine(inStoredYears, 'a time between the years 1000 and 9999');

/** An ILIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** A free-text `q` filter: trimmed, 1 to 200 characters. */
export const searchText = (description: string) => z.string().trim().min(1).max(200).optional().meta({ description });
